import { z } from 'zod';
import { carrierOperationSchema, type CarrierOperation } from '../../../../shared/contract/providers';

/**
 * What an upstream aggregator answers, parsed at the edge. The interface document leaves many shapes
 * "not shown", and an upstream may be the public aggregator or another ShipDesk, so the schemas are
 * lenient where the conventions allow variation (numbers as text, null for empty, absent optional fields)
 * and strict only about what ShipDesk relies on.
 */

/** A text field that may come as a number, null or be absent: always a string here ('' for nothing). */
const str = z
  .union([z.string(), z.number()])
  .nullish()
  .transform((v) => (v === null || v === undefined ? '' : String(v)));

/** A numeric field that may come as text. */
const num = z.union([z.number(), z.string().trim().regex(/^-?\d+(\.\d+)?$/).transform(Number)]);

/** 0/1/null flags; booleans and '0'/'1' are read too. */
const flag = z
  .union([z.literal(0), z.literal(1), z.boolean(), z.enum(['0', '1'])])
  .nullish()
  .transform((v) => (v === null || v === undefined ? null : v === true || v === 1 || v === '1' ? 1 : 0));

/** The interface's error body. */
export const upstreamErrorSchema = z.object({
  code: z.string().regex(/^\d{6}$/),
  message: str,
  description: str.optional(),
  moreInfo: str.optional(),
  errors: z.array(z.object({ field: str, message: str })).nullish(),
});
export type UpstreamErrorBody = z.output<typeof upstreamErrorSchema>;

/** POST /orders → { orderId, created }. */
export const createdSchema = z.object({ orderId: z.union([z.string().min(1), z.number()]).transform(String), created: str });

export const orderInfoSchema = z.object({
  orderId: str,
  providerKey: str,
  providerNumber: str,
  returnProviderNumber: str,
  additionalProviderNumber: str,
  barcode: str,
  clientNumber: str,
  trackingUrl: str,
});
export type RemoteOrderInfo = z.output<typeof orderInfoSchema>;

/** OrderStatus: key is all ShipDesk needs; the rest is carried along. */
export const statusSchema = z.object({
  key: z.string().min(1),
  name: str,
  description: str,
  created: str,
  providerCode: str,
  providerName: str,
  providerDescription: str,
  createdProvider: str,
  errorCode: str,
});
export type RemoteStatus = z.output<typeof statusSchema>;

/** GET /orders/{id}/status and GET /orders/status?clientNumber= → { orderInfo, status }. */
export const statusResultSchema = z.object({ orderInfo: orderInfoSchema, status: statusSchema });
export type RemoteStatusResult = z.output<typeof statusResultSchema>;

/** POST /orders/statuses. */
export const statusesSchema = z.object({
  succeedOrders: z.array(statusResultSchema).default([]),
  failedOrders: z.array(z.object({ orderId: str, message: str })).nullish(),
});

const metaSchema = z.object({ total: num, offset: num.optional(), limit: num.optional() });

/** GET /v1/orders/{id}/statusHistory → rows newest first. */
export const historySchema = z.object({ orderInfo: orderInfoSchema.partial().optional(), rows: z.array(statusSchema), meta: metaSchema.optional() });

const itemSchema = z.looseObject({ description: str, articul: str.optional(), quantity: num.optional(), quantityDelivered: num.nullish() });

/** GET /orders/{id}: the numbers, and the data ShipDesk compares before adopting an order it finds by clientNumber. */
export const orderDetailSchema = z.looseObject({
  order: z.looseObject({
    orderId: str,
    providerKey: str.optional(),
    providerNumber: str,
    additionalProviderNumber: str,
    barcode: str,
    trackingUrl: str,
    clientNumber: str.optional(),
    weight: num.nullish(),
  }),
  recipient: z.looseObject({ phone: str.optional() }).nullish(),
  places: z.array(z.looseObject({ items: z.array(itemSchema).default([]) })).nullish(),
});
export type RemoteOrderDetail = z.output<typeof orderDetailSchema>;

/** A paged list envelope (`/lists/points`, `/lists/tariffs`, `/lists/providers`): rows checked one by one by the caller. */
export const pagedSchema = z.object({ rows: z.array(z.unknown()), meta: metaSchema.optional() });

const capabilitiesSchema = z.object({
  cancel: z.boolean(),
  update: z.boolean(),
  intervals: z.enum(['none', 'fixed', 'dynamic']),
  deliveryTypes: z.array(z.number().int()),
  pickupTypes: z.array(z.number().int()),
  cod: z.boolean(),
  // What the upstream's carrier does; operations a newer upstream names that we do not know are dropped.
  operations: z.array(z.unknown()).transform((ops) => ops.filter((op): op is CarrierOperation => carrierOperationSchema.safeParse(op).success)),
});

/** A /lists/providers record: `{ key, name, description }`, plus `test` and `capabilities` when the upstream is a ShipDesk. */
export const providerSchema = z.object({
  key: z.string().trim().min(1),
  name: str,
  description: str,
  test: z.union([z.boolean(), z.literal(0), z.literal(1)]).nullish().transform((v) => v === true || v === 1),
  capabilities: capabilitiesSchema.partial().nullish(),
});
export type RemoteProvider = z.output<typeof providerSchema>;

const oneOrTwo = z.union([z.literal(1), z.literal(2), z.enum(['1', '2']).transform(Number)]).nullish().transform((v) => (v === 1 || v === 2 ? v : null));

export const tariffSchema = z.object({
  id: num.pipe(z.number().int().nonnegative()),
  providerKey: z.string().min(1),
  name: str,
  description: z.string().nullish(),
  aliasName: z.string().nullish(),
  weightMin: num.nullish(),
  weightMax: num.nullish(),
  pickupType: oneOrTwo,
  deliveryType: oneOrTwo,
  paymentCash: flag,
});
export type RemoteTariff = z.output<typeof tariffSchema>;

const nullableText = z.union([z.string(), z.number()]).nullish().transform((v) => (v === null || v === undefined || v === '' ? null : String(v)));
const nullableNumber = num.nullish().transform((v) => (v === undefined ? null : v));

export const pointSchema = z.object({
  id: num.pipe(z.number().int().nonnegative()),
  providerKey: z.string().min(1),
  code: nullableText,
  name: str,
  postIndex: nullableText,
  lat: nullableNumber,
  lng: nullableNumber,
  countryCode: nullableText,
  region: nullableText,
  city: z.string().min(1),
  community: nullableText,
  street: nullableText,
  house: nullableText,
  block: nullableText,
  office: nullableText,
  address: nullableText,
  phone: nullableText,
  timetable: nullableText,
  worktime: z.record(z.string(), z.unknown()).nullish(),
  fittingRoom: flag,
  cod: flag,
  paymentCash: flag,
  paymentCard: flag,
  availableOperation: num.nullish(),
  type: num.nullish(),
  limits: z
    .object({
      maxSizeA: nullableNumber,
      maxSizeB: nullableNumber,
      maxSizeC: nullableNumber,
      maxSizeSum: nullableNumber,
      minWeight: nullableNumber,
      maxWeight: nullableNumber,
      maxCod: nullableNumber,
    })
    .partial()
    .nullish(),
  enabled: flag,
});
export type RemotePoint = z.output<typeof pointSchema>;

export const serviceSchema = z.object({
  providerKey: z.string().min(1),
  name: str,
  extraParamName: z.string().min(1),
  valueType: z.enum(['bool', 'string', 'int', 'float']).catch('string'),
  description: str,
});
export type RemoteService = z.output<typeof serviceSchema>;

const intervalSchema = z.object({ date: z.string().nullish(), from: z.string(), to: z.string() });

/** POST /calculator/intervals. */
export const intervalsSchema = z.object({
  deliveryToDoor: z
    .array(
      z.object({
        providerKey: z.string(),
        tariffs: z.array(
          z.object({
            tariffProviderId: str,
            tariffId: num,
            tariffName: str,
            pickupTypes: z.array(num).default([]),
            deliveryTypes: z.array(num).default([]),
            toIntervals: z.array(intervalSchema).default([]),
          }),
        ),
      }),
    )
    .default([]),
});
export type RemoteIntervals = z.output<typeof intervalsSchema>;

const quoteSchema = z.object({
  tariffId: num,
  tariffProviderId: str,
  tariffName: str,
  pickupTypes: z.array(num).default([]),
  deliveryTypes: z.array(num).default([]),
  deliveryCost: num,
  daysMin: num.nullish(),
  daysMax: num.nullish(),
  /** ShipDesk's extension: deliveryCost includes these fees. */
  feesIncluded: z.boolean().nullish(),
  insuranceFee: num.nullish(),
  cashServiceFee: num.nullish(),
});

/** POST /calculator. */
export const calculatorSchema = z.object({
  deliveryToDoor: z.array(z.object({ providerKey: z.string(), tariffs: z.array(quoteSchema) })).default([]),
  deliveryToPoint: z.array(z.object({ providerKey: z.string(), tariffs: z.array(quoteSchema) })).default([]),
});
export type RemoteCalculation = z.output<typeof calculatorSchema>;

const failedOrderSchema = z.object({ orderId: z.union([z.string(), z.number()]).transform(String), message: z.string() });

/** POST /orders/labels: a link to one file with the labels, and the orders it left out. */
export const labelsAnswerSchema = z.object({ url: z.string().nullable().optional(), failedOrders: z.array(failedOrderSchema).default([]) });

/** POST /orders/waybills: one act per delivery service, each a link, and the orders left out. */
export const waybillsAnswerSchema = z.object({
  waybillItems: z.array(z.object({ providerKey: z.string(), file: z.string(), orderIds: z.array(z.union([z.string(), z.number()])).default([]) })).default([]),
  failedOrders: z.array(failedOrderSchema).default([]),
});
