import { z } from 'zod';
import { command } from './define';
import { shopStaff } from '../roles';
import { messageRefFields } from '../schemas/error-body';

export const labelFormats = ['pdf', 'zpl'] as const;
export type LabelFormat = (typeof labelFormats)[number];
/** `100x150`: one thermal label per page; `A4`: four A6 labels to a sheet, from `startQuarter` on. ZPL is always 100×150 mm. */
export const labelSizes = ['100x150', 'A4'] as const;
export type LabelSize = (typeof labelSizes)[number];

const orderIdList = z
  .array(z.union([z.string(), z.number()]).transform(String), { message: 'must be a list of order ids' })
  .min(1, 'name at least one order')
  .max(100, 'at most 100 orders at once');

/** What to print: the orders in the order they are to come out, and how. */
export const labelRequestSchema = z.object({
  orderIds: orderIdList,
  format: z.enum(labelFormats, { message: 'must be "pdf" or "zpl"' }).default('pdf'),
  size: z.enum(labelSizes, { message: 'must be "100x150" or "A4"' }).default('100x150'),
  /** On A4: the quarter the first label goes to (1 top left, 2 top right, 3 bottom left, 4 bottom right). */
  startQuarter: z.coerce.number().int().min(1, 'must be 1 to 4').max(4, 'must be 1 to 4').default(1),
});
export type LabelRequest = z.output<typeof labelRequestSchema>;

/** An order left out, with why: `message` the interface's English, `key` and `params` the same for the window (shared/messages). */
export const failedOrderSchema = z.object({ orderId: z.string(), message: z.string(), ...messageRefFields });
export type FailedOrderEntry = z.output<typeof failedOrderSchema>;

/** Handover acts: the orders whose acts to make, one act per delivery service. */
export const waybillRequestSchema = z.object({ orderIds: orderIdList });

/** A made file handed to the window: its bytes in base64 (null when nothing could be printed). */
const printedFileSchema = z.object({
  fileName: z.string(),
  contentType: z.string(),
  base64: z.string().nullable(),
  /** Orders printed. */
  orders: z.number().int(),
  failedOrders: z.array(failedOrderSchema),
});
export type PrintedFileAnswer = z.output<typeof printedFileSchema>;

/** Labels and handover acts, for the shop's printer. */
export const labelCommands = {
  'orders.labels': command(
    'Labels of 1–100 orders as one PDF or one ZPL stream, in the given order: made by the delivery service where it prints its own, drawn by ShipDesk otherwise; orders that cannot be printed are listed with the reason',
    labelRequestSchema,
    printedFileSchema,
    shopStaff,
  ),
  'orders.waybills': command(
    'Handover acts of 1–100 orders, one per delivery service, as one PDF; orders that cannot go on an act are listed with the reason',
    waybillRequestSchema,
    printedFileSchema,
    shopStaff,
  ),
};

/**
 * An order id in the labels' and acts' answers over HTTP: a number, as the aggregator's SDK reads it
 * (`FailedOrder::$orderId` and `WaybillItem::$orderIds` are ints); an id asked for that is not a number
 * comes back as it was sent.
 */
const answeredOrderId = z
  .union([z.number().int(), z.string()])
  .meta({ description: 'The order id as a number; an id asked for that is not a number is answered as it was sent.' });
const answeredFailedOrderSchema = z.object({ orderId: answeredOrderId, message: z.string() });

/** POST /orders/labels answers: a link to the one file of all printed labels (null when none printed). */
export const labelsAnswerSchema = z.object({ url: z.string().nullable(), failedOrders: z.array(answeredFailedOrderSchema) });
/** POST /orders/waybills answers: one act (a link) per delivery service. */
export const waybillsAnswerSchema = z.object({
  waybillItems: z.array(z.object({ providerKey: z.string(), file: z.string(), orderIds: z.array(answeredOrderId) })),
  failedOrders: z.array(answeredFailedOrderSchema),
});
