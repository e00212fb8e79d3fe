import { z } from 'zod';
import { statusKeys } from '../status-keys';

/** Query of the orders list screen (and the orders.list command). */
export const orderListQuerySchema = z.object({
  search: z.string().trim().max(100).optional(),
  statusKeys: z.array(z.enum(statusKeys)).max(statusKeys.length).optional(),
  providerKey: z.string().max(50).optional(),
  limit: z.number().int().min(1).max(500).default(100),
  offset: z.number().int().min(0).default(0),
});
export type OrderListQuery = z.input<typeof orderListQuerySchema>;

export const orderSummarySchema = z.object({
  orderId: z.string(),
  clientNumber: z.string(),
  providerKey: z.string(),
  providerNumber: z.string().nullable(),
  statusKey: z.enum(statusKeys),
  statusDescription: z.string().nullable(),
  recipientName: z.string(),
  recipientPhone: z.string(),
  recipientCity: z.string().nullable(),
  codCost: z.number(),
  created: z.string(),
});
export type OrderSummary = z.output<typeof orderSummarySchema>;

export const orderListPageSchema = z.object({ rows: z.array(orderSummarySchema), total: z.number().int() });
export type OrderListPage = z.output<typeof orderListPageSchema>;
