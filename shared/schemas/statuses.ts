import { z } from 'zod';
import { asList, numberLike } from './primitives';
import { messageRefSchema } from './error-body';

/**
 * The status methods of the interface. Every orderInfo and status field is always present and always
 * a string; a value nobody has given yet is the empty string (the XML codec writes an empty element
 * for it either way), so a client never has to tell null, absent and empty apart.
 */
export const orderInfoSchema = z.object({
  orderId: z.string(),
  providerKey: z.string(),
  providerNumber: z.string(),
  returnProviderNumber: z.string(),
  additionalProviderNumber: z.string(),
  barcode: z.string(),
  clientNumber: z.string(),
  trackingUrl: z.string(),
});
export type OrderInfo = z.output<typeof orderInfoSchema>;

/** One status an order passed (OrderStatus). Timestamps are ISO 8601 with offset. */
export const orderStatusSchema = z.object({
  key: z.string(),
  name: z.string(),
  description: z.string(),
  created: z.string(),
  providerCode: z.string(),
  providerName: z.string(),
  providerDescription: z.string(),
  createdProvider: z.string(),
  errorCode: z.string(),
});
export type OrderStatus = z.output<typeof orderStatusSchema>;

/** A history row. `orderId` is added only when statusHistory merges several orders (its `orderIds` parameter). */
export const historyRowSchema = orderStatusSchema.extend({ orderId: z.string().optional() });
export type HistoryRow = z.output<typeof historyRowSchema>;

export const pageMetaSchema = z.object({ total: z.number().int(), offset: z.number().int(), limit: z.number().int() });
export type PageMeta = z.output<typeof pageMetaSchema>;

export const orderStatusResultSchema = z.object({ orderInfo: orderInfoSchema, status: orderStatusSchema });
export type OrderStatusResult = z.output<typeof orderStatusResultSchema>;

export const statusesResultSchema = z.object({
  succeedOrders: z.array(orderStatusResultSchema),
  failedOrders: z.array(z.object({ orderId: z.string(), message: z.string() })),
});
export type StatusesResult = z.output<typeof statusesResultSchema>;

export const statusHistorySchema = z.object({ orderInfo: orderInfoSchema, rows: z.array(historyRowSchema), meta: pageMetaSchema });
export type StatusHistory = z.output<typeof statusHistorySchema>;

/** The timeline as the window gets it: each description that is ours also as data (shared/messages), for its language. */
export const appHistoryRowSchema = historyRowSchema.extend({ descriptionMessage: messageRefSchema.nullable() });
export const appStatusHistorySchema = statusHistorySchema.extend({ rows: z.array(appHistoryRowSchema) });
export type AppHistoryRow = z.output<typeof appHistoryRowSchema>;
export type AppStatusHistory = z.output<typeof appStatusHistorySchema>;

export const statusHistoryListSchema = z.object({
  rows: z.array(z.object({ orderInfo: orderInfoSchema, statuses: z.array(orderStatusSchema) })),
  meta: pageMetaSchema,
});
export type StatusHistoryList = z.output<typeof statusHistoryListSchema>;

// ---- inputs ----

/** An order id as a caller writes it: a number or text. Whether it names an order is the service's question. */
const orderIdRef = z.union([z.number(), z.string().trim().min(1, 'must not be empty').max(50, 'is too long')]).transform(String);

/** Up to 100 order ids (the interface's bound for the status methods). */
export const orderIdListSchema = z.preprocess(
  asList,
  z.array(orderIdRef, { error: 'must be a list of order ids' }).min(1, 'must name at least one order').max(100, 'must name at most 100 orders'),
);

/** Body of POST /orders/statuses. */
export const statusesRequestSchema = z.object({ orderIds: orderIdListSchema });
export type StatusesRequest = z.output<typeof statusesRequestSchema>;

const wholeNumber = (min: number, max: number | null, fallback: number) =>
  numberLike
    .pipe(
      max === null
        ? z.number().int('must be a whole number').min(min, `must be at least ${min}`)
        : z.number().int('must be a whole number').min(min, `must be between ${min} and ${max}`).max(max, `must be between ${min} and ${max}`),
    )
    .default(fallback);

/** offset 0–5000 and limit 1–100: the bounds of the history of one order. */
export const historyPageSchema = z.object({ offset: wholeNumber(0, 5000, 0), limit: wholeNumber(1, 100, 100) });

/** offset from 0 and limit 1–1000: the bounds of the company-wide history lists. */
export const historyListPageSchema = z.object({ offset: wholeNumber(0, null, 0), limit: wholeNumber(1, 1000, 100) });

/** Input of the statuses.history command: an order's timeline for the UI. */
export const statusHistoryCommandSchema = historyPageSchema.extend({ orderId: orderIdRef });
export type StatusHistoryCommand = z.input<typeof statusHistoryCommandSchema>;
