import { z } from 'zod';
import { command } from './define';

/** 100,000 order ids as JSON (`"1234567",` is 10 bytes; a 20-digit id 23) with room for the rest. */
const manyOrderIdsBodyLimit = 4 * 1024 * 1024;
import { shopStaff } from '../roles';
import { statusRefreshResultSchema } from './status-refresh';
import { statusKeys } from '../status-keys';
import { orderExportFilterSchema } from '../schemas/orders-list';
import { errorBodySchema, messageRefSchema } from '../schemas/error-body';

/**
 * Commands of the desktop orders screen that work on many orders, and of the background work the
 * window shows: the status refresh scheduler, stuck orders, the outbox.
 */

export const bulkActions = ['submit', 'cancel', 'refresh', 'delete'] as const;

export const bulkResultSchema = z.object({
  action: z.enum(bulkActions),
  ok: z.number().int(),
  failed: z.number().int(),
  results: z.array(z.object({ orderId: z.string(), ok: z.boolean(), error: errorBodySchema.optional() })),
});
export type BulkResult = z.output<typeof bulkResultSchema>;

/** The list's filter (search, statuses, service, dates, COD): export what the list shows. */
export const exportFilterSchema = orderExportFilterSchema;

export const lastRefreshSchema = z.object({
  /** When the last refresh that covered the company ended; null = never. */
  at: z.string().nullable(),
  trigger: z.enum(['schedule', 'manual']).nullable(),
  result: statusRefreshResultSchema.nullable(),
  error: z.string().nullable(),
  /** When the scheduler runs next (null when it is not running). */
  nextAt: z.string().nullable(),
  running: z.boolean(),
});

export const stuckOrderSchema = z.object({
  orderId: z.string(),
  clientNumber: z.string(),
  providerKey: z.string(),
  providerNumber: z.string().nullable(),
  statusKey: z.enum(statusKeys),
  statusDescription: z.string().nullable(),
  statusDescriptionMessage: messageRefSchema.nullable().optional(),
  recipientName: z.string(),
  statusChanged: z.string(),
  daysWithoutChange: z.number().int(),
});

export const outboxViewSchema = z.object({
  /** The company's orders still to be sent / changed / canceled at their services. */
  pending: z.number().int(),
  /** Some of them failed to reach their service and wait for the next attempt. */
  waitingForConnection: z.boolean(),
  retrying: z.number().int(),
  nextAttemptAt: z.string().nullable(),
  lastError: z.string().nullable(),
  /** The last error as data (shared/messages) for the window's language; null when it is not ours. */
  lastErrorMessage: messageRefSchema.nullable(),
});

/** Push event while a status refresh runs (and once when it ends: done = total). */
export const refreshProgressEventSchema = z.object({
  type: z.literal('refresh.progress'),
  companyId: z.number().int(),
  done: z.number().int(),
  total: z.number().int(),
});

/** Push event: orders that a refresh found delivered, returned or in trouble. */
export const ordersNoticeEventSchema = z.object({
  type: z.literal('orders.notice'),
  companyId: z.number().int(),
  kind: z.enum(['delivered', 'returned', 'problem']),
  orderIds: z.array(z.string()),
  clientNumbers: z.array(z.string()),
});
export type OrdersNoticeEvent = z.output<typeof ordersNoticeEventSchema>;

const orderIds = z.array(z.union([z.string(), z.number()]).transform(String)).min(1, 'name at least one order').max(1000, 'at most 1000 orders at once');

export const bulkCommands = {
  'orders.bulk': command(
    'Submit (send a failed order again), cancel, refresh or delete many orders; one result per order',
    z.object({ action: z.enum(bulkActions), orderIds }),
    bulkResultSchema,
    shopStaff,
  ),
  'orders.exportXlsx': command(
    'The orders (by ids, or those matching the list filter) as an xlsx workbook with the list columns',
    z.object({
      orderIds: z.array(z.union([z.string(), z.number()]).transform(String)).min(1).max(100_000).optional(),
      filter: exportFilterSchema.optional(),
      lang: z.enum(['ru', 'en']).default('ru'),
    }),
    z.object({ fileName: z.string(), base64: z.string(), rows: z.number().int() }),
    shopStaff,
    manyOrderIdsBodyLimit,
  ),
  'orders.stuck': command(
    'Live unfinished orders whose status has not moved for the stuck threshold (settings) or the given days',
    z.object({
      days: z.number().int().min(1).max(365).optional(),
      limit: z.number().int().min(1).max(1000).default(200),
      offset: z.number().int().min(0).default(0),
    }).default({ limit: 200, offset: 0 }),
    z.object({ thresholdDays: z.number().int(), total: z.number().int(), rows: z.array(stuckOrderSchema) }),
    shopStaff,
  ),
  'statuses.refreshNow': command(
    'Refresh the company\'s statuses now (joins a refresh already running); progress comes as refresh.progress events',
    z.object({}).default({}),
    statusRefreshResultSchema,
    shopStaff,
  ),
  'statuses.lastRefresh': command('When statuses were last refreshed, with what result, and when the next refresh is due', z.object({}).default({}), lastRefreshSchema, shopStaff),
  'outbox.state': command('The company\'s orders waiting to reach their services: how many, the next attempt, the last error', z.object({}).default({}), outboxViewSchema, shopStaff),
};
