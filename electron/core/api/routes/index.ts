import type { App } from '../../app';
import type { Route } from '../route';
import { appTransportRoutes } from './app-transport';
import { calculatorRoutes } from './calculator';
import { docsRoutes } from './docs';
import { listRoutes } from './lists';
import { orderRoutes } from './orders';
import { statusRoutes } from './statuses';
import { uploadRoutes } from './upload';

/**
 * The HTTP routes: the delivery interface (with and without /v1) and its docs, and, for browser mode only,
 * the transport the web UI uses (`/app/commands/*`, `/app/events`: every command of the window, settings and
 * token included). The desktop app's window talks over IPC, so its local API leaves the transport out.
 */
export function allRoutes(app: App, options: { windowTransport?: boolean } = {}): Route[] {
  const { windowTransport = true } = options;
  // Status routes first: `/orders/status` and `/orders/statuses` are not order ids.
  return [
    ...statusRoutes(app),
    ...uploadRoutes(app),
    ...orderRoutes(app),
    ...calculatorRoutes(app),
    ...listRoutes(app),
    ...(windowTransport ? appTransportRoutes(app) : []),
    ...docsRoutes(),
  ];
}
