import { z } from 'zod';
import { statusKeys } from '../status-keys';
import { messageRefSchema } from './error-body';
import { addressSchema, costSchema, extraParamsSchema, itemSchema, orderCreateSchema, orderPartSchema, placeSchema } from './order';

/** An order id as a caller writes it: text (as the interface returns it) or a number. */
export const orderIdSchema = z.union([z.string().trim().min(1, 'must not be empty').max(20, 'is too long'), z.number().int()]).transform(String);

/**
 * GET /orders/{orderId} (wire conventions): the order's data as created or last changed, with its
 * numbers at the delivery service and its current status. Numbers not given yet are empty strings,
 * as in the status methods' orderInfo.
 */
export const orderDetailSchema = z.object({
  order: orderPartSchema.extend({
    orderId: z.string(),
    providerNumber: z.string(),
    additionalProviderNumber: z.string(),
    returnProviderNumber: z.string(),
    barcode: z.string(),
    trackingUrl: z.string(),
    statusKey: z.enum(statusKeys),
    created: z.string(),
  }),
  cost: costSchema,
  sender: addressSchema,
  recipient: addressSchema,
  returnAddress: addressSchema.optional(),
  places: z.array(
    placeSchema.extend({
      items: z.array(itemSchema.extend({ quantityDelivered: z.number().int().min(0).optional() })),
    }),
  ),
  extraParams: extraParamsSchema,
});
export type OrderDetail = z.output<typeof orderDetailSchema>;

/** What the order screen may offer: each is true when the order and its delivery service allow it now. */
export const orderActionsSchema = z.object({
  update: z.boolean(),
  cancel: z.boolean(),
  delete: z.boolean(),
  /** The order has a label to print (orders.labels): registered and not canceled. */
  labels: z.boolean(),
});
export type OrderActions = z.output<typeof orderActionsSchema>;

/** The orders.get command: the detail plus what the screen needs beside it. */
export const orderViewSchema = orderDetailSchema.extend({
  statusDescription: z.string(),
  /** The status text as data (shared/messages) when it is ours, for the window's language; null: the service's words. */
  statusDescriptionMessage: messageRefSchema.nullable(),
  actions: orderActionsSchema,
  /** When the parcels were marked handed over on the dispatch screen, and the act's number; null: not yet. */
  handover: z.object({ number: z.string(), handedAt: z.string() }).nullable(),
  /**
   * The order's next job in the outbox (sending it, its changes, its cancel) while it waits there: its attempts,
   * when the next is due and why the last failed (null: none failed yet); null when nothing waits.
   */
  outbox: z
    .object({
      action: z.enum(['create', 'update', 'cancel', 'delete']),
      attempts: z.number().int(),
      nextAttemptAt: z.string(),
      lastError: z.string().nullable(),
      /** The last error as data (shared/messages) for the window's language; null when it is not ours. */
      lastErrorMessage: messageRefSchema.nullable(),
    })
    .nullable(),
});
export type OrderView = z.output<typeof orderViewSchema>;

export const orderRefSchema = z.object({ orderId: orderIdSchema });
export type OrderRef = z.input<typeof orderRefSchema>;

/** orders.update: the order id beside the same payload as create (field errors keep the payload's paths). */
export const orderUpdateCommandSchema = z.intersection(orderRefSchema, orderCreateSchema);
export type OrderUpdateCommand = z.input<typeof orderUpdateCommandSchema>;

export const orderUpdatedSchema = z.object({ message: z.literal('ok') });
export const orderCanceledSchema = z.object({ orderId: z.string(), canceled: z.string() });
export const orderDeletedSchema = z.object({ orderId: z.string(), deleted: z.string() });
export type OrderCanceled = z.output<typeof orderCanceledSchema>;
export type OrderDeleted = z.output<typeof orderDeletedSchema>;
