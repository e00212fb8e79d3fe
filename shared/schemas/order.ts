import { z } from 'zod';
import {
  blankAsMissing,
  booleanLike, countryCode, money, nonNegativeNumber, nullsAsMissing, numberLike, optionalText, positiveInt, positiveNumber, text, textLike, timeOfDay,
} from './primitives';

/** Address and contact of the sender, the recipient or the return address. */
export const addressSchema = z
  .object({
    countryCode,
    region: optionalText(),
    city: optionalText(),
    street: optionalText(),
    house: optionalText(50),
    block: optionalText(50),
    office: optionalText(50),
    index: optionalText(20),
    addressString: optionalText(500),
    contactName: text(255),
    phone: textLike(z.string().trim().regex(/^\+?[\d\s\-()]{5,20}$/, 'must be a phone number')),
    email: z.string().trim().email('must be an e-mail address').optional().or(z.literal('').transform(() => undefined)),
    companyName: optionalText(),
    brandName: optionalText(),
  })
  .superRefine((a, ctx) => {
    if (!a.addressString && !a.city) {
      ctx.addIssue({ code: 'custom', path: ['city'], message: 'city or addressString is required' });
    }
  });

export const itemSchema = z.object({
  description: text(255),
  quantity: positiveInt,
  articul: optionalText(100),
  barcode: optionalText(100),
  assessedCost: blankAsMissing(money),
  cost: blankAsMissing(money),
  weight: blankAsMissing(nonNegativeNumber),
  length: blankAsMissing(nonNegativeNumber),
  width: blankAsMissing(nonNegativeNumber),
  height: blankAsMissing(nonNegativeNumber),
});

export const placeSchema = z.object({
  placeNumber: optionalText(50),
  barcode: optionalText(100),
  weight: positiveNumber,
  length: blankAsMissing(positiveNumber),
  width: blankAsMissing(positiveNumber),
  height: blankAsMissing(positiveNumber),
  items: z.array(itemSchema).min(1, 'a place needs at least one item').max(500),
});

const deliveryType = numberLike.pipe(z.union([z.literal(1), z.literal(2)], { message: 'must be 1 (door) or 2 (pickup point)' }));
const pickupType = numberLike.pipe(z.union([z.literal(1), z.literal(2)], { message: 'must be 1 (door) or 2 (warehouse)' }));

export const orderPartSchema = z.object({
  clientNumber: text(50),
  providerKey: text(50),
  providerConnectId: blankAsMissing(positiveInt),
  deliveryType,
  pickupType,
  tariffId: positiveInt,
  pointOutId: blankAsMissing(positiveInt),
  pointInId: blankAsMissing(positiveInt),
  weight: positiveNumber,
  length: blankAsMissing(positiveNumber),
  width: blankAsMissing(positiveNumber),
  height: blankAsMissing(positiveNumber),
  deliveryTimeStart: blankAsMissing(timeOfDay),
  deliveryTimeEnd: blankAsMissing(timeOfDay),
  deliveryDate: z.string().trim().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD').optional(),
  comment: optionalText(1000),
});

export const costSchema = z.object({
  assessedCost: money,
  codCost: money,
  deliveryCost: blankAsMissing(money),
  /** Our extension: what the delivery service quoted the shop for this tariff when the order was made (the price comparison). */
  quotedDeliveryCost: blankAsMissing(money),
});

export const extraParamsSchema = z.record(z.string().min(1).max(100), z.union([z.string().max(500), z.number(), z.boolean()]));

/**
 * An empty extraParams means none: PHP's json_encode writes an empty array as `[]` and XML an empty
 * element as `<extraParams/>` (text ''); null is dropped with the other nulls (nullsAsMissing).
 */
const optionalExtraParams = z.preprocess<unknown, z.ZodOptional<typeof extraParamsSchema>, z.input<typeof extraParamsSchema>>(
  (v: unknown) => ((Array.isArray(v) && v.length === 0) || v === '' ? undefined : v),
  extraParamsSchema.optional(),
);

/** The order-creation payload of POST /orders (and PUT /orders/{id}); JSON null anywhere in it means "not given". */
export const orderCreateSchema = nullsAsMissing(
  z
    .object({
      order: orderPartSchema,
      cost: costSchema,
      sender: addressSchema,
      recipient: addressSchema,
      returnAddress: addressSchema.optional(),
      places: z.array(placeSchema).min(1, 'at least one place is required').max(255),
      extraParams: optionalExtraParams,
    })
    .superRefine((o, ctx) => {
      if (o.order.deliveryType === 2 && o.order.pointOutId === undefined) {
        ctx.addIssue({ code: 'custom', path: ['order', 'pointOutId'], message: 'is required when deliveryType = 2' });
      }
      if (o.order.deliveryTimeStart && o.order.deliveryTimeEnd && o.order.deliveryTimeStart >= o.order.deliveryTimeEnd) {
        ctx.addIssue({ code: 'custom', path: ['order', 'deliveryTimeEnd'], message: 'must be later than deliveryTimeStart' });
      }
    }),
);

export type OrderCreateInput = z.input<typeof orderCreateSchema>;
export type OrderCreate = z.output<typeof orderCreateSchema>;
export type Address = z.output<typeof addressSchema>;
export type Place = z.output<typeof placeSchema>;
export type Item = z.output<typeof itemSchema>;

export const orderCreatedSchema = z.object({ orderId: z.string(), created: z.string() });
export type OrderCreated = z.output<typeof orderCreatedSchema>;

export { booleanLike };
