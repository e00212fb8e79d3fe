import type { z } from 'zod';
import { historyListPageSchema, historyPageSchema, statusesRequestSchema } from '../../../../shared/schemas/statuses';
import type { App } from '../../app';
import { parseInput } from '../../validation';
import type { ApiRequest, Route } from '../route';

const optional = (query: URLSearchParams, name: string) => query.get(name) ?? undefined;

const pageOf = (req: ApiRequest, schema: z.ZodType<{ offset: number; limit: number }>) =>
  parseInput(schema, { offset: optional(req.query, 'offset'), limit: optional(req.query, 'limit') });

/**
 * `orderIds` of statusHistory as clients write lists in a query string: repeated (`orderIds=1&orderIds=2`),
 * PHP style (`orderIds[]=1`, `orderIds[0]=1`) or comma-separated (`orderIds=1,2`). None: undefined.
 */
function orderIdsOf(query: URLSearchParams): string[] | undefined {
  const values = [...query.entries()].filter(([key]) => /^orderIds(\[\d*\])?$/.test(key)).flatMap(([, value]) => value.split(','));
  return values.length ? parseInput(statusesRequestSchema, { orderIds: values }).orderIds : undefined;
}

/** The eight status methods of the interface. They come before the order routes: `/orders/status` is not an order id. */
export function statusRoutes(app: App): Route[] {
  const { statuses } = app.services;
  return [
    {
      method: 'GET',
      pattern: '/orders/status',
      handler: (req) => statuses.currentByClientNumber(req.ctx, req.query.get('clientNumber')),
    },
    {
      method: 'GET',
      pattern: '/orders/status/history',
      handler: (req) =>
        statuses.historyByClientNumber(req.ctx, req.query.get('clientNumber'), pageOf(req, historyPageSchema), optional(req.query, 'filter')),
    },
    {
      method: 'POST',
      pattern: '/orders/statuses',
      handler: (req) => statuses.many(req.ctx, parseInput(statusesRequestSchema, req.body ?? {}).orderIds),
    },
    {
      method: 'GET',
      pattern: '/orders/statuses/date/:date',
      handler: (req) => statuses.changedSince(req.ctx, req.params.date),
    },
    {
      method: 'GET',
      pattern: '/orders/statuses/history/date/:date',
      handler: (req) => statuses.historySince(req.ctx, req.params.date, pageOf(req, historyListPageSchema)),
    },
    {
      method: 'GET',
      pattern: '/orders/statuses/interval',
      handler: (req) =>
        statuses.historyInterval(
          req.ctx,
          { from: req.query.get('from'), to: req.query.get('to'), filter: optional(req.query, 'filter') },
          pageOf(req, historyListPageSchema),
        ),
    },
    {
      method: 'GET',
      pattern: '/orders/:orderId/status',
      handler: (req) => statuses.current(req.ctx, req.params.orderId),
    },
    {
      method: 'GET',
      pattern: '/orders/:orderId/statusHistory',
      handler: async (req) => {
        const page = pageOf(req, historyPageSchema);
        return statuses.history(req.ctx, req.params.orderId, page, { orderIds: orderIdsOf(req.query), filter: optional(req.query, 'filter') });
      },
    },
  ];
}
