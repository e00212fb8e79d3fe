import { z } from 'zod';
import { ErrorCode } from '../../../../shared/errors';
import {
  historyListPageSchema, historyPageSchema, orderIdListSchema, orderStatusResultSchema, statusesRequestSchema, statusesResultSchema, statusHistoryListSchema,
  statusHistorySchema,
} from '../../../../shared/schemas/statuses';
import { historyFilterFields, intervalFilterFields } from '../../statuses/status-filter';
import {
  bodyRows, clientNumberDoc, filterDoc, historyPagingDocs, listFilterRows, momentDoc, orderIdDoc, orderInfoExample, orderNotFoundRow, statusExample,
  unauthorizedRow, validationRow,
} from '../openapi/operations';
import { defineRoute, type Route } from '../route';
import { byOrderId } from './orders';

const createdNote = ' `created` takes one date or timestamp with `=`, `>` or `<`.';
const filter = { filter: z.string().optional() };
const byClientNumber = { clientNumber: z.string() };
const dateParams = z.object({ date: z.string() });
const dateDoc = (example: string) => ({ date: { description: momentDoc, example } });

/**
 * `orderIds` of statusHistory as clients write lists in a query string: repeated (`orderIds=1&orderIds=2`),
 * PHP style (`orderIds[]=1`, `orderIds[0]=1`) or comma-separated (`orderIds=1,2`).
 */
const orderIdsQuery = z.preprocess((v) => (v === undefined ? v : [v].flat().flatMap((s) => String(s).split(','))), orderIdListSchema.optional());

/** The eight status methods of the interface. They come before the order routes: `/orders/status` is not an order id. */
export const statusRoutes: Route[] = [
  defineRoute({
    method: 'GET',
    pattern: '/orders/status',
    query: z.object(byClientNumber),
    answer: orderStatusResultSchema,
    doc: {
      id: 'getStatusByClientNumber',
      tag: 'Statuses',
      summary: 'Current status by clientNumber',
      summaryRu: 'Статус по номеру заказа клиента',
      description: 'The same answer as GET /orders/{orderId}/status, for the order with this clientNumber: the live one, else the newest canceled one (ours).',
      params: clientNumberDoc,
      formats: ['json', 'xml'],
      answer: { name: 'OrderStatusResult', description: 'The order and its newest status.' },
      errors: [
        unauthorizedRow,
        validationRow('`clientNumber` is missing or empty.'),
        { status: 404, code: ErrorCode.orderNotFound, when: 'No order of the company has this clientNumber.' },
        { status: 404, code: ErrorCode.noStatuses, when: 'The order has no status yet.' },
      ],
    },
    handler: (req, app) => app.services.statuses.currentByClientNumber(req.ctx, req.query.clientNumber),
  }),
  defineRoute({
    method: 'GET',
    pattern: '/orders/status/history',
    query: historyPageSchema.extend({ ...byClientNumber, ...filter }),
    answer: statusHistorySchema,
    doc: {
      id: 'getStatusHistoryByClientNumber',
      tag: 'Statuses',
      summary: 'Status history by clientNumber',
      summaryRu: 'История статусов по номеру заказа клиента',
      description: 'The same answer and bounds as GET /orders/{orderId}/statusHistory, for the order with this clientNumber (the live one, else the newest canceled one).',
      params: { ...clientNumberDoc, ...historyPagingDocs('order'), filter: { description: filterDoc({ ...historyFilterFields, created: null }, createdNote) } },
      formats: ['json', 'xml'],
      answer: { name: 'StatusHistory', description: 'The order and its statuses, newest first.' },
      errors: [
        unauthorizedRow,
        validationRow('`clientNumber` is missing, or `offset` / `limit` is out of bounds (errors[] names it).'),
        { status: 404, code: ErrorCode.orderNotFound, when: 'No order of the company has this clientNumber.' },
        ...listFilterRows,
      ],
    },
    handler: ({ ctx, query: { clientNumber, filter, ...page } }, app) => app.services.statuses.historyByClientNumber(ctx, clientNumber, page, filter),
  }),
  defineRoute({
    method: 'POST',
    pattern: '/orders/statuses',
    body: statusesRequestSchema,
    answer: statusesResultSchema,
    doc: {
      id: 'getStatuses',
      tag: 'Statuses',
      summary: 'Current statuses of several orders',
      summaryRu: 'Статусы нескольких заказов',
      description: [
        'Body `{ "orderIds": [...] }`, 1 to 100 ids (numbers or text; one value counts as a list of one; XML: `<orderIds><item>1</item>…</orderIds>`).',
        'Each id is answered once, in the order asked: found ones in `succeedOrders` as `{ orderInfo, status }`, the others in `failedOrders` with a message (unknown, another company\'s, no status yet). HTTP 200 even when every id failed.',
      ].join('\n\n'),
      formats: ['json', 'xml'],
      body: { name: 'StatusesRequest', description: 'The order ids.', example: { orderIds: ['42', '43'] } },
      answer: {
        name: 'StatusesResult',
        description: 'Statuses of the orders found; the others with the reason.',
        example: { succeedOrders: [{ orderInfo: orderInfoExample, status: statusExample }], failedOrders: [{ orderId: '43', message: 'Order 43 was not found' }] },
      },
      errors: [unauthorizedRow, validationRow('`orderIds` is missing, empty, not a list, longer than 100, or has an empty or too long id.'), ...bodyRows],
    },
    handler: (req, app) => app.services.statuses.many(req.ctx, req.body.orderIds),
  }),
  defineRoute({
    method: 'GET',
    pattern: '/orders/statuses/date/:date',
    params: dateParams,
    answer: z.array(orderStatusResultSchema),
    doc: {
      id: 'getStatusesChangedSince',
      tag: 'Statuses',
      summary: 'Orders whose status changed since a date',
      summaryRu: 'Заказы, статус которых изменился после даты',
      description: `A bare array of \`{ orderInfo, status }\` for every order of the company whose current status was set after the date, oldest change first. ${momentDoc}`,
      params: dateDoc('2026-03-01T10:15:17+03:00'),
      formats: ['json', 'xml'],
      answer: { name: 'OrderStatusResults', description: 'The orders and their current statuses.' },
      errors: [unauthorizedRow, validationRow('`date` is not a real calendar date or an ISO 8601 timestamp (field `date`).')],
    },
    handler: (req, app) => app.services.statuses.changedSince(req.ctx, req.params.date),
  }),
  defineRoute({
    method: 'GET',
    pattern: '/orders/statuses/history/date/:date',
    params: dateParams,
    query: historyListPageSchema,
    answer: statusHistoryListSchema,
    doc: {
      id: 'getStatusHistorySince',
      tag: 'Statuses',
      summary: 'Every status change since a date',
      summaryRu: 'Все изменения статусов с даты',
      description: `\`{ rows: [{ orderInfo, statuses }], meta }\`: the status changes since the date, grouped by order (orders by id, statuses newest first). Paged **by order**: \`limit\` orders per page, \`meta.total\` counts orders. ${momentDoc}`,
      params: { ...dateDoc('2026-03-01'), ...historyPagingDocs('list') },
      formats: ['json', 'xml'],
      answer: { name: 'StatusHistoryList', description: 'Status changes grouped by order.' },
      errors: [unauthorizedRow, validationRow('`date` is not a date or timestamp, or `offset` / `limit` is out of bounds.')],
    },
    handler: (req, app) => app.services.statuses.historySince(req.ctx, req.params.date, req.query),
  }),
  defineRoute({
    method: 'GET',
    pattern: '/orders/statuses/interval',
    query: historyListPageSchema.extend({ from: z.string(), to: z.string().optional(), ...filter }),
    answer: statusHistoryListSchema,
    doc: {
      id: 'getStatusHistoryInterval',
      tag: 'Statuses',
      summary: 'Status changes in an interval',
      summaryRu: 'Изменения статусов за период',
      description: [
        'The status changes with `from` ≤ created ≤ `to`, grouped by order like GET /orders/statuses/history/date/{date}, paged by order.',
        '- `from` is required; `to` may be left out (up to now and beyond); a calendar date as `to` covers that whole day; `to` before `from` is 040002.',
        '- Dates and timestamps as in the other status methods.',
      ].join('\n'),
      params: {
        from: { description: 'Start, inclusive: a date or timestamp.', example: '2026-03-01' },
        to: { description: 'End, inclusive (a date: the whole day).', example: '2026-03-31' },
        filter: { description: filterDoc({ ...intervalFilterFields, created: null }, createdNote), example: 'providerKey=sandbox-express;key=[delivered,returned]' },
        ...historyPagingDocs('list'),
      },
      formats: ['json', 'xml'],
      answer: { name: 'StatusHistoryList', description: 'Status changes grouped by order.' },
      errors: [unauthorizedRow, validationRow('`from` is missing or not a date, `to` is not a date or before `from`, or `offset` / `limit` is out of bounds.'), ...listFilterRows],
    },
    handler: ({ ctx, query: { from, to, filter, ...page } }, app) => app.services.statuses.historyInterval(ctx, { from, to: to ?? null, filter }, page),
  }),
  defineRoute({
    method: 'GET',
    pattern: '/orders/:orderId/status',
    ...byOrderId,
    answer: orderStatusResultSchema,
    doc: {
      id: 'getOrderStatus',
      tag: 'Statuses',
      summary: 'Current status of an order',
      summaryRu: 'Текущий статус заказа',
      description:
        '`{ orderInfo, status }`. Every `orderInfo` and `status` field is always present and always a string; a value nobody has given yet is `""` (ours). A canceled order answers with `deliveryCanceled`; `errorCode` is 100 (our side), 200 (the delivery service) or 300 (the client\'s data).',
      params: orderIdDoc,
      formats: ['json', 'xml'],
      answer: { name: 'OrderStatusResult', description: 'The order and its newest status.', example: { orderInfo: orderInfoExample, status: statusExample } },
      errors: [unauthorizedRow, orderNotFoundRow, { status: 404, code: ErrorCode.noStatuses, when: 'The order has no status yet.' }],
    },
    handler: (req, app) => app.services.statuses.current(req.ctx, req.params.orderId),
  }),
  defineRoute({
    method: 'GET',
    pattern: '/orders/:orderId/statusHistory',
    ...byOrderId,
    query: historyPageSchema.extend({ orderIds: orderIdsQuery, ...filter }),
    answer: statusHistorySchema,
    doc: {
      id: 'getStatusHistory',
      tag: 'Statuses',
      summary: 'Status history of an order',
      summaryRu: 'История статусов заказа',
      description: [
        '`{ orderInfo, rows, meta: { total, offset, limit } }`, rows newest first (may be empty).',
        '- `orderIds` (at most 100) merges the histories of those orders with the path\'s order into one list; each row then carries its `orderId`, and `orderInfo` stays the path\'s order. Written repeated (`orderIds=1&orderIds=2`), PHP style (`orderIds[]=1`, `orderIds[0]=1`) or comma-separated (`orderIds=1,2`).',
        '- `filter` narrows the rows: by `key`, or by `created` with `=`, `>` or `<` and a date or timestamp.',
      ].join('\n'),
      params: {
        ...orderIdDoc,
        ...historyPagingDocs('order'),
        orderIds: { description: 'More orders to merge in (at most 100).', example: '43,44' },
        filter: { description: filterDoc({ ...historyFilterFields, created: null }, createdNote), example: 'created>2026-03-01' },
      },
      formats: ['json', 'xml'],
      answer: {
        name: 'StatusHistory',
        description: 'The order and its statuses, newest first.',
        example: { orderInfo: orderInfoExample, rows: [statusExample], meta: { total: 1, offset: 0, limit: 100 } },
      },
      errors: [
        unauthorizedRow,
        orderNotFoundRow,
        validationRow('`offset` / `limit` out of bounds, or more than 100 `orderIds` (errors[] names the parameter).'),
        { status: 404, code: ErrorCode.orderNotFound, when: 'An id in `orderIds` is not an order of the company (description names it).' },
        ...listFilterRows,
      ],
    },
    handler: ({ ctx, params, query: { orderIds, filter, ...page } }, app) => app.services.statuses.history(ctx, params.orderId, page, { orderIds, filter }),
  }),
];
