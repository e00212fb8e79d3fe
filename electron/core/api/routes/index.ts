import type { App } from '../../app';
import type { Route } from '../route';
import { appTransportRoutes } from './app-transport';
import { calculatorRoutes } from './calculator';
import { docsRoutes } from './docs';
import { listRoutes } from './lists';
import { orderRoutes } from './orders';
import { statusRoutes } from './statuses';
import { uploadRoutes } from './upload';

/** Every HTTP route: the delivery interface (with and without /v1) and the browser-mode transport. */
export function allRoutes(app: App): Route[] {
  // Status routes first: `/orders/status` and `/orders/statuses` are not order ids.
  return [...statusRoutes(app), ...uploadRoutes(app), ...orderRoutes(app), ...calculatorRoutes(app), ...listRoutes(app), ...appTransportRoutes(app), ...docsRoutes()];
}
