import { z } from 'zod';
import {
  blankAsMissing,
  booleanLike, calendarDate, centimetres, centimetresOrZero, countryCode, grams, gramsOrZero, money, nullsAsMissing, numberLike, optionalText, positiveInt,
  phoneNumber, quantity, text, timeOfDay,
} from './primitives';

const coordinate = blankAsMissing(numberLike.pipe(z.number().min(-180).max(180)));
/** A VAT rate as the aggregator's clients send it (-1 none, 0, 10, 20…): kept and returned, not acted on. */
const vatRate = blankAsMissing(numberLike.pipe(z.number().int('must be a whole number').min(-1).max(100)));

type AddressFields = { countryCode?: string; index?: string; postIndex?: string };

/**
 * A Russian postcode is six digits; services refuse or misroute anything else. The rule reads two fields (the
 * country and the postcode), so it is a refinement of the address, but one that runs as soon as those two
 * parse (`when`), whatever else of the address is wrong yet: a blank form shows it under the postcode at once.
 */
function russianPostcode(field: 'index' | 'postIndex'): [(a: AddressFields) => boolean, { path: PropertyKey[]; message: string; when: (payload: z.core.ParsePayload) => boolean }] {
  return [
    (a: AddressFields) => a.countryCode !== 'RU' || a[field] === undefined || /^\d{6}$/.test(a[field]),
    {
      path: [field],
      message: 'must be 6 digits (a Russian postcode)',
      // Only on an address (not on a missing or mistyped one) whose two fields parsed.
      when: (payload) =>
        typeof payload.value === 'object' && payload.value !== null && !payload.issues.some((issue) => issue.path?.[0] === 'countryCode' || issue.path?.[0] === field),
    },
  ];
}

/**
 * Address and contact of the sender, the recipient or the return address. `postIndex` is the aggregator
 * clients' name of `index`: either may be sent, both are returned. Their other fields (`area`, `cityGuid`,
 * `lat`, `lng`, `comment`…) are kept and returned; ShipDesk does not act on them.
 */
export const addressSchema = z
  .object({
    countryCode,
    postIndex: optionalText(20),
    area: optionalText(),
    cityGuid: optionalText(50),
    lat: coordinate,
    lng: coordinate,
    companyInn: optionalText(20),
    additionalPhone: optionalText(30),
    comment: optionalText(1000),
    region: optionalText(),
    city: optionalText(),
    street: optionalText(),
    house: optionalText(50),
    block: optionalText(50),
    office: optionalText(50),
    index: optionalText(20),
    addressString: optionalText(500),
    contactName: text(255),
    phone: phoneNumber,
    email: z.string().trim().email('must be an e-mail address').optional().or(z.literal('').transform(() => undefined)),
    companyName: optionalText(),
    brandName: optionalText(),
  })
  .superRefine((a, ctx) => {
    if (!a.addressString && !a.city) {
      ctx.addIssue({ code: 'custom', path: ['city'], message: 'city or addressString is required' });
    }
  })
  .refine(...russianPostcode('index'))
  .refine(...russianPostcode('postIndex'))
  .transform((a) => {
    const index = a.index ?? a.postIndex;
    return index === undefined ? a : { ...a, index, postIndex: index };
  });

export const itemSchema = z.object({
  description: text(255),
  quantity,
  articul: optionalText(100),
  barcode: optionalText(100),
  assessedCost: blankAsMissing(money),
  cost: blankAsMissing(money),
  weight: blankAsMissing(gramsOrZero),
  length: blankAsMissing(centimetresOrZero),
  width: blankAsMissing(centimetresOrZero),
  height: blankAsMissing(centimetresOrZero),
  /** Goods marking code (Честный знак); kept and returned. */
  markCode: optionalText(500),
  costVat: vatRate,
  companyName: optionalText(),
  companyInn: optionalText(20),
  companyPhone: optionalText(30),
});

export const placeSchema = z.object({
  placeNumber: optionalText(50),
  barcode: optionalText(100),
  weight: grams,
  length: blankAsMissing(centimetres),
  width: blankAsMissing(centimetres),
  height: blankAsMissing(centimetres),
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
  weight: grams,
  length: blankAsMissing(centimetres),
  width: blankAsMissing(centimetres),
  height: blankAsMissing(centimetres),
  deliveryTimeStart: blankAsMissing(timeOfDay),
  deliveryTimeEnd: blankAsMissing(timeOfDay),
  deliveryDate: z.string().trim().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD').optional(),
  comment: optionalText(1000),
  /** The order's note, as the aggregator's clients name it. */
  description: optionalText(1000),
  pickupDate: blankAsMissing(calendarDate),
  pickupTimeStart: blankAsMissing(timeOfDay),
  pickupTimeEnd: blankAsMissing(timeOfDay),
  paymentMethod: blankAsMissing(positiveInt),
});

export const costSchema = z.object({
  assessedCost: money,
  codCost: money,
  deliveryCost: blankAsMissing(money),
  /** Our extension: what the delivery service quoted the shop for this tariff when the order was made (the price comparison). */
  quotedDeliveryCost: blankAsMissing(money),
  deliveryCostVat: vatRate,
  isDeliveryPayedByRecipient: blankAsMissing(booleanLike),
  paymentMethod: blankAsMissing(positiveInt),
});

const extraParamValue = z.union([z.string().max(500), z.number(), z.boolean()]);
export const extraParamsSchema = z.record(z.string().min(1).max(100), extraParamValue);

/** One additional service as the aggregator's clients send and read it: `{ key, value }`. */
export const extraParamEntrySchema = z.object({ key: z.string().min(1).max(100), value: extraParamValue });
export const extraParamListSchema = z.array(extraParamEntrySchema);

const isEntry = (v: unknown): v is { key: unknown; value: unknown } => typeof v === 'object' && v !== null && !Array.isArray(v) && 'key' in v && 'value' in v;

/**
 * extraParams as a map `{ insurance: true }` or as the list `[{ key: "insurance", value: "1" }]` the
 * aggregator's clients send (and XML's `<item><key/><value/></item>`); the list becomes the map. An empty one
 * means none: PHP's json_encode writes an empty array as `[]` and XML an empty element as `<extraParams/>`
 * (text ''); null is dropped with the other nulls (nullsAsMissing).
 */
const optionalExtraParams = z.preprocess<unknown, z.ZodOptional<typeof extraParamsSchema>, z.input<typeof extraParamsSchema>>(
  (v: unknown) =>
    (Array.isArray(v) && v.length === 0) || v === ''
      ? undefined
      : Array.isArray(v) && v.every(isEntry)
        ? Object.fromEntries(v.map((e) => [String(e.key), e.value]))
        : v,
  extraParamsSchema.optional(),
);

/** The map form as the list form (GET /orders/{orderId} answers the list, as the aggregator does). */
export const extraParamList = (params: Record<string, string | number | boolean> | undefined) =>
  Object.entries(params ?? {}).map(([key, value]) => ({ key, value }));

/**
 * The older form of the aggregator's SDK examples: `items[]` at the top and no `places`, which is one
 * place of the order's weight and size holding those items.
 */
function placesFromTopLevelItems(v: unknown): unknown {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return v;
  const { items, ...rest } = v as Record<string, unknown>;
  if (items === undefined || (rest.places !== undefined && rest.places !== null)) return v;
  const order = (typeof rest.order === 'object' && rest.order !== null ? rest.order : {}) as Record<string, unknown>;
  return { ...rest, places: [{ weight: order.weight, length: order.length, width: order.width, height: order.height, items }] };
}

/** The order-creation payload of POST /orders (and PUT /orders/{id}); JSON null anywhere in it means "not given". */
const orderObjectSchema = z
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
  });

export const orderCreateSchema = nullsAsMissing(
  z.preprocess<unknown, typeof orderObjectSchema, z.input<typeof orderObjectSchema>>(placesFromTopLevelItems, orderObjectSchema),
);

export type OrderCreateInput = z.input<typeof orderCreateSchema>;
export type OrderCreate = z.output<typeof orderCreateSchema>;
export type Address = z.output<typeof addressSchema>;
export type Place = z.output<typeof placeSchema>;
export type Item = z.output<typeof itemSchema>;

export const orderCreatedSchema = z.object({ orderId: z.string(), created: z.string() });
export type OrderCreated = z.output<typeof orderCreatedSchema>;

export { booleanLike };
