import type { App } from '../../app';
import { operationsOf } from '../openapi/operations';
import type { Route } from '../route';
import { appTransportRoutes } from './app-transport';
import { calculatorRoutes } from './calculator';
import { courierRoutes } from './courier';
import { docsRoutes } from './docs';
import { integrationRoutes } from './integration';
import { listRoutes } from './lists';
import { orderRoutes } from './orders';
import { printRoutes } from './print';
import { statusRoutes } from './statuses';
import { uploadRoutes } from './upload';
import { webhookRoutes } from './webhooks';

/**
 * The delivery interface: every route with its schemas and documentation (route.ts), in matching order —
 * status routes first, since `/orders/status` and `/orders/statuses` are not order ids. `/openapi.json`
 * and `/docs` are generated from this very list.
 */
export const interfaceRoutes: Route[] = [
  ...statusRoutes,
  ...uploadRoutes,
  ...printRoutes,
  ...orderRoutes,
  ...calculatorRoutes,
  ...courierRoutes,
  ...listRoutes,
  ...integrationRoutes,
  ...webhookRoutes,
  ...docsRoutes(() => interfaceRoutes),
];

/** The documented operations of the interface, as the reference describes them. */
export const operations = operationsOf(interfaceRoutes);

/**
 * The HTTP routes: the delivery interface (with and without /v1) and its docs, and, for browser mode only,
 * the transport the web UI uses (`/app/commands/*`, `/app/events`: every command of the window, settings and
 * token included). The desktop app's window talks over IPC, so its local API leaves the transport out.
 */
export function allRoutes(app: App, options: { windowTransport?: boolean } = {}): Route[] {
  const { windowTransport = true } = options;
  return [...interfaceRoutes, ...(windowTransport ? appTransportRoutes(app) : [])];
}
