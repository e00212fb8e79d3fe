import { z } from 'zod';

/**
 * Yandex Delivery "other day" platform bodies as far as ShipDesk reads them (shared/reference/carriers-ru.md and the
 * reference pages under yandex.com/support/delivery-profile/ru/api/other-day/). Every answer is parsed here at the
 * edge; unknown fields are dropped, missing optional ones tolerated.
 */

const numberish = z.union([z.number(), z.string().trim().regex(/^-?\d+(\.\d+)?$/).transform(Number)]);
const textish = z.union([z.string(), z.number().transform(String)]);

/** The one error form: `{ code, message }` with HTTP 400/401/403/404/409/500. */
export const yandexErrorSchema = z.object({ code: textish.optional().default(''), message: z.string().optional().default('') });
export type YandexError = z.output<typeof yandexErrorSchema>;

const intervalSchema = z.object({ from: textish, to: textish });

export const yandexOfferSchema = z.object({
  offer_id: z.string(),
  expires_at: textish.optional(),
  offer_details: z.object({
    delivery_interval: z.object({ min: textish, max: textish, policy: z.string().optional() }),
    pickup_interval: z.object({ min: textish, max: textish }).optional(),
    pricing: z.string().optional(),
    pricing_total: z.string(),
  }),
});
export type YandexOffer = z.output<typeof yandexOfferSchema>;
export const yandexOffersSchema = z.object({ offers: z.array(yandexOfferSchema) });

export const yandexRequestIdSchema = z.object({ request_id: z.string().min(1) });

export const yandexStateSchema = z.object({
  status: z.string(),
  description: z.string().nullish(),
  /** Unix seconds. */
  timestamp: numberish.optional(),
  timestamp_utc: z.string().optional(),
  reason: z.string().nullish(),
});
export type YandexState = z.output<typeof yandexStateSchema>;

export const yandexRequestInfoSchema = z.object({
  request_id: z.string(),
  request: z
    .object({ info: z.object({ operator_request_id: textish.optional() }).partial().optional() })
    .passthrough()
    .optional(),
  state: yandexStateSchema.optional(),
  sharing_url: z.string().nullish(),
  courier_order_id: z.string().nullish(),
});
export type YandexRequestInfo = z.output<typeof yandexRequestInfoSchema>;
export const yandexRequestsInfoSchema = z.object({ requests: z.array(yandexRequestInfoSchema) });

export const yandexHistorySchema = z.object({ state_history: z.array(yandexStateSchema) });

export const yandexCancelSchema = z.object({
  status: z.enum(['CREATED', 'SUCCESS', 'ERROR']),
  reason: z.string().nullish(),
  description: z.string().nullish(),
});
export type YandexCancel = z.output<typeof yandexCancelSchema>;

const clockTime = z.object({ hours: numberish, minutes: numberish });
export const yandexPointSchema = z.object({
  id: z.string(),
  operator_station_id: textish.optional(),
  name: z.string().nullish(),
  type: z.string(),
  position: z.object({ latitude: numberish, longitude: numberish }),
  address: z
    .object({
      geoId: textish.nullish(),
      country: z.string().nullish(),
      region: z.string().nullish(),
      subRegion: z.string().nullish(),
      locality: z.string().nullish(),
      street: z.string().nullish(),
      house: textish.nullish(),
      building: textish.nullish(),
      housing: textish.nullish(),
      apartment: textish.nullish(),
      full_address: z.string().nullish(),
      postal_code: textish.nullish(),
      comment: z.string().nullish(),
    })
    .default({}),
  instruction: z.string().nullish(),
  payment_methods: z.array(z.string()).nullish(),
  contact: z.object({ phone: z.string().nullish() }).partial().nullish(),
  schedule: z
    .object({
      time_zone: numberish.optional(),
      restrictions: z.array(z.object({ days: z.array(numberish), time_from: clockTime, time_to: clockTime })).default([]),
    })
    .nullish(),
  available_for_dropoff: z.boolean().nullish(),
  is_post_office: z.boolean().nullish(),
  is_dark_store: z.boolean().nullish(),
});
export type YandexPoint = z.output<typeof yandexPointSchema>;
export const yandexPointsSchema = z.object({ points: z.array(z.unknown()) });

export const yandexPricingSchema = z.object({ pricing_total: z.string(), delivery_days: numberish.optional() });
export type YandexPricing = z.output<typeof yandexPricingSchema>;

/** `offers/info`: the delivery intervals a destination can be given. */
export const yandexIntervalsSchema = z.object({ offers: z.array(intervalSchema) });
export type YandexIntervals = z.output<typeof yandexIntervalsSchema>;
