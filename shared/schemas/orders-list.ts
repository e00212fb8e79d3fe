import { z } from 'zod';
import { attentionReasons } from '../attention';
import { statusKeys } from '../status-keys';
import { messageRefSchema } from './error-body';
import { calendarDate } from './primitives';

/** Columns the orders list can be sorted by. */
export const orderSortKeys = ['created', 'clientNumber', 'status', 'cod'] as const;
export type OrderSortKey = (typeof orderSortKeys)[number];

/**
 * The filter of the orders list (shared by orders.list and orders.exportXlsx). Dates are calendar days
 * on the shop's clock, both ends included.
 */
export const orderListFilterSchema = z.object({
  /** Part of clientNumber, providerNumber, recipient name or phone. */
  search: z.string().trim().max(100).optional(),
  statusKeys: z.array(z.enum(statusKeys)).max(statusKeys.length).optional(),
  providerKey: z.string().max(50).optional(),
  dateFrom: calendarDate.optional(),
  dateTo: calendarDate.optional(),
  /** true: only orders with cash on delivery; false: only those without. */
  cod: z.boolean().optional(),
  /** true: only orders that need attention (shared/attention.ts), not marked seen since their last change. */
  attention: z.boolean().optional(),
});

const datesInOrder = (q: { dateFrom?: string; dateTo?: string }) => !q.dateFrom || !q.dateTo || q.dateFrom <= q.dateTo;
const datesInOrderMessage = { message: 'must not be before dateFrom', path: ['dateTo'] };

/** The list filter on its own, as orders.exportXlsx takes it. */
export const orderExportFilterSchema = orderListFilterSchema.refine(datesInOrder, datesInOrderMessage);

/** Query of the orders list screen (and the orders.list command). */
export const orderListQuerySchema = orderListFilterSchema
  .extend({
    sort: z.enum(orderSortKeys).default('created'),
    direction: z.enum(['asc', 'desc']).default('desc'),
    limit: z.number().int().min(1).max(500).default(100),
    offset: z.number().int().min(0).default(0),
    /**
     * false: skip counting (the screen counts once per filter and then only fetches further windows
     * of rows while the user scrolls).
     */
    withTotal: z.boolean().default(true),
  })
  .refine(datesInOrder, datesInOrderMessage);
export type OrderListQuery = z.input<typeof orderListQuerySchema>;
export type OrderListFilter = z.output<typeof orderListFilterSchema>;

export const orderSummarySchema = z.object({
  orderId: z.string(),
  clientNumber: z.string(),
  providerKey: z.string(),
  providerNumber: z.string().nullable(),
  statusKey: z.enum(statusKeys),
  statusDescription: z.string().nullable(),
  /** The status text as data (shared/messages) when it is ours, for the window's language; null: the service's words. */
  statusDescriptionMessage: messageRefSchema.nullable().optional(),
  recipientName: z.string(),
  recipientPhone: z.string(),
  recipientCity: z.string().nullable(),
  codCost: z.number(),
  /** The service's price for the tariff, as quoted when the order was made (null: not chosen from the price table). */
  quotedDeliveryCost: z.number().nullable(),
  /** What the recipient pays for delivery (null: nothing). */
  deliveryCost: z.number().nullable(),
  created: z.string(),
  /** Registered and waiting for the courier: not marked handed over on the dispatch screen yet. */
  awaitingHandover: z.boolean().optional(),
  /** Why the order needs attention (its status says so, whether or not the shop marked it seen). */
  attentionReason: z.enum(attentionReasons).nullable().optional(),
});
export type OrderSummary = z.output<typeof orderSummarySchema>;

export const orderListPageSchema = z.object({
  rows: z.array(orderSummarySchema),
  /** Orders matching the filter (-1 when the query asked for no count). */
  total: z.number().int(),
  /** The count stopped at `total`: there are at least that many (a broad search on a large shop). */
  totalCapped: z.boolean().optional(),
});
export type OrderListPage = z.output<typeof orderListPageSchema>;
