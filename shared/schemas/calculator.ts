import { z } from 'zod';
import { parseTimestamp } from '../time';
import { centimetres, countryCode, grams, money, numberLike, optionalText, positiveInt } from './primitives';

/**
 * POST /calculator and POST /calculator/intervals. Weights in grams, sizes in centimetres, money in
 * rubles with kopecks. XML bodies carry lists as `item` elements and empty elements for "not given";
 * a single number or text where a list is expected counts as a list of one.
 */

/** An empty XML element or empty string is "not given". */
const blank = (value: unknown) => (value === '' || value === null ? undefined : value);
const optional = <S extends z.ZodType>(schema: S) => z.preprocess(blank, schema.optional());
const listOf = <S extends z.ZodType>(item: S, max: number) =>
  z.preprocess(
    // An empty list restricts nothing: the WooCommerce checkout sends `providerKeys: []` meaning every service.
    (v) => (v === null || v === '' || (Array.isArray(v) && v.length === 0) ? undefined : typeof v === 'string' || typeof v === 'number' ? [v] : v),
    z.array(item, { error: 'must be a list' }).max(max, `must have at most ${max} entries`).optional(),
  );

/** A calendar date (YYYY-MM-DD); a timestamp is taken by the date written in it. */
export const dayText = z
  .string()
  .trim()
  .refine((v) => !Number.isNaN(parseTimestamp(v)) && new Date(Date.parse(`${v.slice(0, 10)}T00:00:00Z`)).toISOString().startsWith(v.slice(0, 10)), 'must be a date YYYY-MM-DD')
  .transform((v) => v.slice(0, 10));

const coordinate = (limit: number) => numberLike.pipe(z.number().min(-limit, `must be between -${limit} and ${limit}`).max(limit, `must be between -${limit} and ${limit}`));

/** Where a parcel goes from or to: a city, an address line or coordinates. */
export const calculatorPlaceSchema = z
  .object({
    countryCode: optional(countryCode).transform((v) => v ?? 'RU'),
    index: optionalText(20),
    addressString: optionalText(500),
    region: optionalText(),
    city: optionalText(),
    lat: optional(coordinate(90)),
    lng: optional(coordinate(180)),
  })
  .superRefine((p, ctx) => {
    if (!p.city && !p.addressString && (p.lat === undefined || p.lng === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['city'], message: 'city, addressString or lat and lng is required' });
    }
  });
export type CalculatorPlace = z.output<typeof calculatorPlaceSchema>;

export const calculatorParcelSchema = z.object({
  weight: grams,
  length: optional(centimetres),
  width: optional(centimetres),
  height: optional(centimetres),
});
export type CalculatorParcel = z.output<typeof calculatorParcelSchema>;

const typeList = listOf(numberLike.pipe(z.union([z.literal(1), z.literal(2)], { error: 'must be 1 or 2' })), 2);

/** Body of POST /calculator. The older single-parcel form (weight, length, width, height at the top) is taken too. */
export const calculatorRequestSchema = z
  .object({
    from: calculatorPlaceSchema,
    to: calculatorPlaceSchema,
    places: listOf(calculatorParcelSchema, 100),
    weight: optional(grams),
    length: optional(centimetres),
    width: optional(centimetres),
    height: optional(centimetres),
    pickupDate: optional(dayText),
    pickupTypes: typeList,
    deliveryTypes: typeList,
    providerKeys: listOf(z.string().trim().min(1, 'must not be empty').max(50), 50),
    assessedCost: optional(money).transform((v) => v ?? 0),
    codCost: optional(money).transform((v) => v ?? 0),
    tariffIds: listOf(positiveInt, 100),
    pointInId: optional(positiveInt),
    pointOutId: optional(positiveInt),
  })
  .superRefine((r, ctx) => {
    if (!r.places?.length && r.weight === undefined) ctx.addIssue({ code: 'custom', path: ['places'], message: 'places (or weight) is required' });
  })
  .transform(({ weight, length, width, height, places, ...rest }) => ({
    ...rest,
    places: places?.length ? places : [{ weight: weight!, length, width, height }],
  }));
export type CalculatorRequestInput = z.input<typeof calculatorRequestSchema>;
export type CalculatorRequest = z.output<typeof calculatorRequestSchema>;

const tariffQuoteSchema = z.object({
  tariffId: z.number().int(),
  tariffProviderId: z.string(),
  tariffName: z.string(),
  pickupTypes: z.array(z.number().int()),
  deliveryTypes: z.array(z.number().int()),
  /** What the shop pays: transport plus the insurance and cash-on-delivery fees. */
  deliveryCost: z.number(),
  /** The same before ShipDesk's own pricing rules; there are none, so it equals deliveryCost. */
  deliveryCostOriginal: z.number(),
  daysMin: z.number().int(),
  daysMax: z.number().int(),
  /** Breakdown, as the public API names it: the fees are included in deliveryCost. */
  feesIncluded: z.boolean(),
  insuranceFee: z.number(),
  cashServiceFee: z.number(),
});
export type TariffQuote = z.output<typeof tariffQuoteSchema>;

export const calculatorResultSchema = z.object({
  deliveryToDoor: z.array(z.object({ providerKey: z.string(), tariffs: z.array(tariffQuoteSchema) })),
  deliveryToPoint: z.array(z.object({ providerKey: z.string(), tariffs: z.array(tariffQuoteSchema.extend({ pointIds: z.array(z.number().int()) })) })),
});
export type CalculatorResult = z.output<typeof calculatorResultSchema>;

/** The window's answer: the interface's, and the services that could not be asked (shown as "no connection", not left out). */
export const calculatorAnswerSchema = calculatorResultSchema.extend({ unreachable: z.array(z.string()) });
export type CalculatorAnswer = z.output<typeof calculatorAnswerSchema>;

/** Body of POST /calculator/intervals. Every field is optional: a fixed-interval service needs none of them. */
export const intervalsRequestSchema = z.object({
  from: optional(calculatorPlaceSchema),
  to: optional(calculatorPlaceSchema),
  codCost: optional(money).transform((v) => v ?? 0),
  pickupDate: optional(dayText),
  deliveryDate: optional(dayText),
  pickupTypes: typeList,
  providerKeys: listOf(z.string().trim().min(1, 'must not be empty').max(50), 50),
  tariffIds: listOf(positiveInt, 100),
});
export type IntervalsRequestInput = z.input<typeof intervalsRequestSchema>;
export type IntervalsRequest = z.output<typeof intervalsRequestSchema>;

export const deliveryIntervalSchema = z.object({
  /** YYYY-MM-DD; null for a fixed interval, which holds on any delivery day. */
  date: z.string().nullable(),
  from: z.string(),
  to: z.string(),
});
export type DeliveryInterval = z.output<typeof deliveryIntervalSchema>;

export const tariffIntervalsSchema = z.object({
  tariffProviderId: z.string(),
  tariffId: z.number().int(),
  tariffName: z.string(),
  pickupTypes: z.array(z.number().int()),
  deliveryTypes: z.array(z.number().int()),
  toIntervals: z.array(deliveryIntervalSchema),
});
export type TariffIntervals = z.output<typeof tariffIntervalsSchema>;

export const intervalsResultSchema = z.object({
  deliveryToDoor: z.array(z.object({ providerKey: z.string(), tariffs: z.array(tariffIntervalsSchema) })),
});
export type IntervalsResult = z.output<typeof intervalsResultSchema>;
