import { z } from 'zod';
import { messageRefSchema } from './error-body';
import {
  asList, calendarDate, countryCode, nullsAsMissing, numberLike, optionalText, phoneNumber, positiveInt, text, textLike, timeOfDay,
} from './primitives';

const orderId = textLike(z.string().trim().regex(/^\d{1,15}$/, 'must be an order id'));

/**
 * The body of POST /courierCall (apiship-clients.md): the service, the day and window, where and whom the
 * courier comes to, the parcels' totals (weight in grams, sides in centimetres) and the orders it takes.
 * JSON null anywhere means "not given".
 */
export const courierCallCreateSchema = nullsAsMissing(
  z
    .object({
      providerKey: text(100),
      providerConnectId: positiveInt.optional(),
      date: calendarDate,
      timeStart: timeOfDay,
      timeEnd: timeOfDay,
      weight: positiveInt,
      width: positiveInt.optional(),
      height: positiveInt.optional(),
      length: positiveInt.optional(),
      orderIds: z.preprocess(asList, z.array(orderId).max(1000)).default([]),
      postIndex: optionalText(20),
      countryCode: countryCode.default('RU'),
      region: optionalText(),
      area: optionalText(),
      city: text(255),
      street: optionalText(),
      house: optionalText(50),
      block: optionalText(50),
      office: optionalText(50),
      lat: numberLike.pipe(z.number().min(-90).max(90)).optional(),
      lng: numberLike.pipe(z.number().min(-180).max(180)).optional(),
      addressString: optionalText(500),
      companyName: optionalText(),
      contactName: text(255),
      phone: phoneNumber,
      email: z.string().trim().email('must be an e-mail address').optional().or(z.literal('').transform(() => undefined)),
      comment: optionalText(1000),
      // Sent by clients as [{ key, value }] or an object; no service reads it yet, so it is accepted and kept.
      extraParams: z.unknown().optional(),
    })
    .superRefine((c, ctx) => {
      if (c.timeStart >= c.timeEnd) ctx.addIssue({ code: 'custom', path: ['timeEnd'], message: 'must be later than timeStart' });
    }),
);
export type CourierCallCreateInput = z.input<typeof courierCallCreateSchema>;
export type CourierCallCreate = z.output<typeof courierCallCreateSchema>;

/** The answer of POST /courierCall: the call is stored either way; `error` says why the service did not accept it. */
export const courierCallCreatedSchema = z.object({
  id: z.number().int(),
  created: z.string(),
  providerNumber: z.string().nullable(),
  additionalProviderNumber: z.string().nullable(),
  error: z.string().nullable(),
});
export type CourierCallCreated = z.output<typeof courierCallCreatedSchema>;
/** The answer as the window gets it: `error` also as data (shared/messages) when the words are ours. */
export const appCourierCallCreatedSchema = courierCallCreatedSchema.extend({ errorMessage: messageRefSchema.nullable() });
export type AppCourierCallCreated = z.output<typeof appCourierCallCreatedSchema>;

export const courierCallCanceledSchema = z.object({ id: z.number().int(), canceled: z.string() });
export type CourierCallCanceled = z.output<typeof courierCallCanceledSchema>;

export const courierCallStateSchema = z.enum(['accepted', 'refused', 'failed', 'canceled']);

/** A courier call as the app lists it. */
export const courierCallViewSchema = z.object({
  id: z.number().int(),
  providerKey: z.string(),
  providerConnectId: z.number().int().nullable(),
  date: z.string(),
  timeStart: z.string(),
  timeEnd: z.string(),
  weight: z.number(),
  city: z.string(),
  address: z.string(),
  contactName: z.string(),
  phone: z.string(),
  comment: z.string().nullable(),
  orderIds: z.array(z.string()),
  state: courierCallStateSchema,
  providerNumber: z.string().nullable(),
  error: z.string().nullable(),
  /** `error` as data (shared/messages) when the words are ours: the window says it in its language. */
  errorMessage: messageRefSchema.nullable(),
  created: z.string(),
  canceled: z.string().nullable(),
});
export type CourierCallView = z.output<typeof courierCallViewSchema>;

/** What the "call a courier" form starts from: the chosen orders' totals and service, the default sender. */
export const courierCallDraftSchema = z.object({
  orders: z.number().int(),
  /** The service of all the chosen orders, when they share one. */
  providerKey: z.string().nullable(),
  providerConnectId: z.number().int().nullable(),
  /** Grams, every order together. */
  weight: z.number().int(),
  /** Centimetres of the largest place. */
  length: z.number().int().nullable(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  /** The default sender profile's address and contact, as the order form keeps it. */
  sender: z.record(z.string(), z.unknown()).nullable(),
});
export type CourierCallDraft = z.output<typeof courierCallDraftSchema>;
