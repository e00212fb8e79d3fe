import { orderCreateSchema } from '../../../../shared/schemas/order';
import type { App } from '../../app';
import { parseInput } from '../../validation';
import type { Route } from '../route';

/** The order operations of the delivery interface. */
export function orderRoutes(app: App): Route[] {
  const { orders } = app.services;
  return [
    {
      method: 'POST',
      pattern: '/orders',
      handler: (req) => orders.create(req.ctx, parseInput(orderCreateSchema, req.body)),
    },
  ];
}
