import { orderCreateSchema } from '../../../../shared/schemas/order';
import type { App } from '../../app';
import { parseInput } from '../../validation';
import type { Route } from '../route';

/**
 * The order operations of the delivery interface (with and without /v1). `:orderId` routes are listed
 * after the status routes (routes/index.ts), so `/orders/status` never reads as an order id.
 */
export function orderRoutes(app: App): Route[] {
  const { orders } = app.services;
  return [
    {
      method: 'POST',
      pattern: '/orders',
      handler: (req) => orders.create(req.ctx, parseInput(orderCreateSchema, req.body)),
    },
    {
      method: 'GET',
      pattern: '/orders/:orderId',
      handler: (req) => orders.get(req.ctx, req.params.orderId),
    },
    {
      method: 'PUT',
      pattern: '/orders/:orderId',
      // The order's existence and state speak before its data: an unknown order is 404 whatever the body.
      handler: async (req) => {
        await orders.get(req.ctx, req.params.orderId);
        return orders.update(req.ctx, req.params.orderId, parseInput(orderCreateSchema, req.body));
      },
    },
    {
      method: 'DELETE',
      pattern: '/orders/:orderId',
      handler: (req) => orders.remove(req.ctx, req.params.orderId),
    },
    {
      method: 'GET',
      pattern: '/orders/:orderId/cancel',
      handler: (req) => orders.cancel(req.ctx, req.params.orderId),
    },
  ];
}
