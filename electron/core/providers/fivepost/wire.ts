import { z } from 'zod';

/**
 * 5Post's answers as far as ShipDesk reads them (shared/reference/carriers-ru.md, lapaygroup/fivepost-sdk's README
 * examples). Parsed here at the edge; unknown fields are dropped.
 */

const text = z.union([z.string(), z.number().transform(String)]);

export const fivePostJwtSchema = z.object({ jwt: z.string().min(10) });

export const fivePostCreatedSchema = z.array(
  z.object({
    orderId: z.string().min(1),
    senderOrderId: text,
    cargoes: z.array(z.object({ cargoId: z.string().nullish(), senderCargoId: text.nullish(), barcode: text.nullish() })).nullish(),
    alreadyCreated: z.boolean().nullish(),
  }),
);

export const fivePostStatusSchema = z.object({
  orderId: z.string().nullish(),
  senderOrderId: text.nullish(),
  status: z.string().nullish(),
  executionStatus: z.string().nullish(),
  changeDate: z.string(),
});
export const fivePostStatusesSchema = z.array(fivePostStatusSchema);

const rateSchema = z
  .object({
    zone: text,
    rateValue: z.number(),
    rateValueWithVat: z.number().nullish(),
    rateExtraValue: z.number().nullish(),
    rateExtraValueWithVat: z.number().nullish(),
  })
  // Some answers carry only the rate without VAT (the SDK's example): VAT 20 % is added, to the kopeck.
  .transform((r) => ({ ...r, rateValueWithVat: r.rateValueWithVat ?? Math.round(r.rateValue * 120) / 100 }));

export const fivePostPointSchema = z.object({
  id: z.string().min(1),
  name: z.string().nullish(),
  type: z.string(),
  fullAddress: z.string().nullish(),
  address: z
    .object({ lat: z.number().nullish(), lng: z.number().nullish(), city: z.string().nullish(), region: z.string().nullish(), zipCode: text.nullish(), street: z.string().nullish(), house: text.nullish() })
    .nullish(),
  workHours: z.array(z.object({ day: z.string(), opensAt: z.string(), closesAt: z.string() })).nullish(),
  cellLimits: z.object({ maxCellWidth: z.number().nullish(), maxCellHeight: z.number().nullish(), maxCellLength: z.number().nullish(), maxWeight: z.number().nullish() }).nullish(),
  cashAllowed: z.boolean().nullish(),
  cardAllowed: z.boolean().nullish(),
  returnAllowed: z.boolean().nullish(),
  rate: z.array(rateSchema).nullish(),
  deliverySL: z.array(z.object({ sl: z.number() })).nullish(),
});
export type FivePostPointWire = z.output<typeof fivePostPointSchema>;

/** One page of `pickuppoints/query` (Spring's page: content, totalPages, number). Points are parsed one by one. */
export const fivePostPointsPageSchema = z.object({ content: z.array(z.unknown()), totalPages: z.number().int().nonnegative(), number: z.number().int().optional() });
