import { z } from 'zod';

/**
 * Russian Post's Otpravka API answers as far as ShipDesk reads them (shared/reference/carriers-ru.md,
 * lapaygroup/RussianPost and appwilio/russianpost-sdk, facts only). Every answer is parsed here at the edge;
 * unknown fields are dropped. Money is in kopecks, weights in grams, as the service sends them.
 */

const textish = z.union([z.string(), z.number().transform(String)]);
const int = z.union([z.number(), z.string().regex(/^-?\d+$/).transform(Number)]);

/** One refusal of one order of a batch call: `{ error-codes: [{ code, description, details }], position }`. */
export const postErrorCodeSchema = z.object({ code: z.string(), description: z.string().nullish(), details: z.string().nullish() });
export const postPositionErrorSchema = z.object({
  'error-codes': z.array(postErrorCodeSchema).optional(),
  /** The batch and check-in calls name one code per position instead. */
  'error-code': z.string().optional(),
  position: int.optional(),
});
export type PostPositionError = z.output<typeof postPositionErrorSchema>;

/** PUT /1.0/user/backlog: ids of the orders created, refusals by position (HTTP 200 either way). */
export const postCreatedSchema = z.object({ 'result-ids': z.array(int).optional().default([]), errors: z.array(postPositionErrorSchema).optional().default([]) });

/** An order as the backlog (or a batch) holds it. */
export const postOrderSchema = z.object({
  id: int,
  'order-num': textish.nullish(),
  barcode: z.string().nullish(),
  'batch-name': textish.nullish(),
  'mail-type': z.string().nullish(),
  'mail-category': z.string().nullish(),
  'payment': int.nullish(),
  'insr-value': int.nullish(),
  'human-operation-name': z.string().nullish(),
});
export type PostOrder = z.output<typeof postOrderSchema>;
export const postOrdersSchema = z.array(postOrderSchema);

/** One batch (партия). */
export const postBatchSchema = z.object({
  'batch-name': textish,
  'batch-status': z.string().nullish(),
  'mail-type': z.string().nullish(),
  'mail-category': z.string().nullish(),
  'list-number-date': z.string().nullish(),
  'shipment-count': int.nullish(),
  'postoffice-code': textish.nullish(),
});
export type PostBatch = z.output<typeof postBatchSchema>;

/** POST /1.0/user/shipment: the batches formed, the ids put into them, refusals by position. */
export const postBatchesCreatedSchema = z.object({
  batches: z.array(postBatchSchema).optional().default([]),
  'result-ids': z.array(int).optional().default([]),
  errors: z.array(postPositionErrorSchema).optional().default([]),
});

/** POST /1.0/batch/{name}/checkin. */
export const postCheckinSchema = z.object({ 'f103-sent': z.boolean().optional(), 'error-code': z.string().optional(), errors: z.array(postPositionErrorSchema).optional() });

/** POST /1.0/tariff (kopecks). */
export const postTariffSchema = z.object({
  'total-rate': int,
  'total-vat': int.optional(),
  'delivery-time': z.object({ 'min-days': int.optional(), 'max-days': int }).nullish(),
});

/** A delivery point (post office, parcel locker, pickup point) as GET /1.0/delivery-point/findAll lists them. */
export const postPointSchema = z.object({
  'delivery-point-index': textish,
  'delivery-point-type': z.string().nullish(),
  address: z
    .object({ 'address-type': z.string().nullish(), index: textish.nullish(), region: z.string().nullish(), place: z.string().nullish(), street: z.string().nullish(), house: z.string().nullish() })
    .nullish(),
  latitude: z.union([z.number(), z.string()]).nullish(),
  longitude: z.union([z.number(), z.string()]).nullish(),
  'card-payment': z.boolean().nullish(),
  'cash-payment': z.boolean().nullish(),
  'weight-limit': z.union([z.number(), z.string()]).nullish(),
  'work-time': z.array(z.string()).nullish(),
  'getto': z.string().nullish(),
  closed: z.boolean().nullish(),
  temporary_closed: z.boolean().nullish(),
});
export type PostPoint = z.output<typeof postPointSchema>;

/** One operation of the tracking service (getOperationHistory's OperationHistoryRecord, or an operation of a ticket's answer). */
export interface PostOperation {
  /** Operation type (1 acceptance, 2 delivery, 8 processing…). */
  type: number;
  /** Its attribute within the type. */
  attribute: number;
  typeName?: string;
  attributeName?: string;
  /** Epoch ms. */
  at: number;
  index?: string;
  place?: string;
}
