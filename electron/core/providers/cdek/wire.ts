import { z } from 'zod';

/**
 * CDEK API v2 bodies as far as ShipDesk reads them (shared/reference/cdek-v2.md). Every answer of CDEK is
 * parsed with these schemas at the edge; unknown fields are dropped, missing optional ones tolerated.
 */

const numberish = z.union([z.number(), z.string().trim().regex(/^-?\d+(\.\d+)?$/).transform(Number)]);
const textish = z.union([z.string(), z.number().transform(String)]);

export const cdekErrorSchema = z.object({ code: textish, message: z.string().optional().default('') });
export type CdekErrorEntry = z.output<typeof cdekErrorSchema>;

export const cdekRequestSchema = z.object({
  request_uuid: z.string().optional(),
  type: z.string().optional(),
  state: z.string(),
  date_time: z.string().optional(),
  errors: z.array(cdekErrorSchema).nullish().transform((v) => v ?? []),
  warnings: z.array(cdekErrorSchema).nullish().transform((v) => v ?? []),
});
export type CdekRequestInfo = z.output<typeof cdekRequestSchema>;

export const cdekStatusSchema = z.object({
  code: z.string(),
  name: z.string().optional(),
  date_time: z.string(),
  reason_code: textish.nullish(),
  city: z.string().nullish(),
  deleted: z.boolean().optional(),
});
export type CdekStatus = z.output<typeof cdekStatusSchema>;

export const cdekOrderEntitySchema = z.object({
  uuid: z.string(),
  type: numberish.optional(),
  number: textish.nullish(),
  cdek_number: textish.nullish(),
  tariff_code: numberish.optional(),
  statuses: z.array(cdekStatusSchema).nullish().transform((v) => v ?? []),
});
export type CdekOrderEntity = z.output<typeof cdekOrderEntitySchema>;

/** `POST/GET/PATCH/DELETE /v2/orders…` answers. */
export const cdekOrderResponseSchema = z.object({
  entity: cdekOrderEntitySchema.optional(),
  requests: z.array(cdekRequestSchema).nullish().transform((v) => v ?? []),
});
export type CdekOrderResponse = z.output<typeof cdekOrderResponseSchema>;

export const cdekTokenSchema = z.object({
  access_token: z.string().min(1),
  token_type: z.string().optional(),
  expires_in: numberish.default(3600),
  scope: z.string().optional(),
  jti: z.string().optional(),
});

export const cdekLocationSchema = z.object({
  city_code: numberish.nullish(),
  city: z.string().nullish(),
  region: z.string().nullish(),
  country_code: z.string().nullish(),
  postal_code: z.string().nullish(),
  address: z.string().nullish(),
  address_full: z.string().nullish(),
  latitude: numberish.nullish(),
  longitude: numberish.nullish(),
});

export const cdekOfficeSchema = z.object({
  code: z.string().min(1),
  type: z.string().default('PVZ'),
  name: z.string().nullish(),
  location: cdekLocationSchema.default({}),
  work_time: z.string().nullish(),
  work_time_list: z
    .array(z.object({ day: numberish, time: z.string() }))
    .nullish()
    .transform((v) => v ?? []),
  is_dressing_room: z.boolean().nullish(),
  have_cash: z.boolean().nullish(),
  have_cashless: z.boolean().nullish(),
  allowed_cod: z.boolean().nullish(),
  is_handout: z.boolean().nullish(),
  is_reception: z.boolean().nullish(),
  weight_min: numberish.nullish(),
  weight_max: numberish.nullish(),
  dimensions: z
    .array(z.object({ width: numberish, height: numberish, depth: numberish }))
    .nullish()
    .transform((v) => v ?? []),
});
export type CdekOffice = z.output<typeof cdekOfficeSchema>;

export const cdekTariffListSchema = z.object({
  tariff_codes: z
    .array(
      z.object({
        tariff_code: numberish,
        tariff_name: z.string().default(''),
        tariff_description: z.string().nullish(),
        delivery_mode: numberish,
        delivery_sum: numberish,
        period_min: numberish.nullish(),
        period_max: numberish.nullish(),
      }),
    )
    .default([]),
});
export type CdekTariffList = z.output<typeof cdekTariffListSchema>;

export const cdekIntervalsSchema = z.object({
  date_intervals: z
    .array(
      z.object({
        date: z.string(),
        time_intervals: z.array(z.object({ start_time: z.string(), end_time: z.string() })).default([]),
      }),
    )
    .default([]),
});
export type CdekIntervals = z.output<typeof cdekIntervalsSchema>;

export const cdekPrintFormSchema = z.object({
  entity: z.object({
    uuid: z.string(),
    url: z.string().nullish(),
    statuses: z
      .array(z.object({ code: z.string(), name: z.string().optional(), date_time: z.string().optional() }))
      .nullish()
      .transform((v) => v ?? []),
  }),
});

export const cdekCitySchema = z.object({ code: numberish, city: z.string() });

/** A `location` block of an order or a calculation. */
export interface CdekLocation {
  code?: number;
  city?: string;
  postal_code?: string;
  country_code?: string;
  region?: string;
  address?: string;
}

export interface CdekPhone {
  number: string;
}

/** The body of `POST /v2/orders` as ShipDesk sends it. */
export interface CdekOrderBody {
  type: 1 | 2;
  number: string;
  tariff_code: number;
  comment?: string;
  shipment_point?: string;
  from_location?: CdekLocation;
  delivery_point?: string;
  to_location?: CdekLocation;
  recipient: { name: string; company?: string; email?: string; phones: CdekPhone[] };
  sender: { company?: string; name: string; email?: string; phones: CdekPhone[] };
  delivery_recipient_cost?: { value: number };
  services?: { code: string; parameter?: string }[];
  packages: {
    number: string;
    weight: number;
    length?: number;
    width?: number;
    height?: number;
    items: { name: string; ware_key: string; payment: { value: number }; cost: number; weight: number; amount: number }[];
  }[];
}
