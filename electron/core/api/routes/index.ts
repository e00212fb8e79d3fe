import type { App } from '../../app';
import type { Route } from '../route';
import { appTransportRoutes } from './app-transport';
import { orderRoutes } from './orders';

/** Every HTTP route: the delivery interface (with and without /v1) and the browser-mode transport. */
export function allRoutes(app: App): Route[] {
  return [...orderRoutes(app), ...appTransportRoutes(app)];
}
