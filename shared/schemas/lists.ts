import { z } from 'zod';
import { providerCapabilitiesSchema } from '../contract/providers';
import { statusKeys } from '../status-keys';

/**
 * Records of the reference lists (`/lists/*` of the interface, wire conventions "Records").
 * Flags that the conventions give as 0/1/null stay numbers on the wire; weights are grams,
 * sizes centimetres, money rubles.
 */

const flag = z.union([z.literal(0), z.literal(1)]);
const nullableFlag = flag.nullable();

/** Opening hours by ISO weekday ("1" Monday … "7" Sunday) as `HH:MM/HH:MM`; a missing day is a day off. */
export const worktimeSchema = z.partialRecord(z.enum(['1', '2', '3', '4', '5', '6', '7']), z.string().regex(/^\d{2}:\d{2}\/\d{2}:\d{2}$/));
export type Worktime = z.output<typeof worktimeSchema>;

/** What a point takes. Sizes A ≥ B ≥ C are filled for parcel lockers (the largest cell); null means no limit known. */
export const pointLimitsSchema = z.object({
  maxSizeA: z.number().nullable(),
  maxSizeB: z.number().nullable(),
  maxSizeC: z.number().nullable(),
  maxSizeSum: z.number().nullable(),
  minWeight: z.number().nullable(),
  maxWeight: z.number().nullable(),
  maxCod: z.number().nullable(),
});
export type PointLimits = z.output<typeof pointLimitsSchema>;

/** Point types: 1 pickup point, 2 parcel locker, 3 post office, 4 terminal. */
export const pointTypes = [1, 2, 3, 4] as const;
/** Operations of a point: 1 acceptance, 2 issue, 3 both. */
export const pointOperations = [1, 2, 3] as const;

export const pointSchema = z.object({
  id: z.number().int(),
  providerKey: z.string(),
  code: z.string(),
  name: z.string(),
  postIndex: z.string().nullable(),
  lat: z.number().nullable(),
  lng: z.number().nullable(),
  countryCode: z.string(),
  region: z.string().nullable(),
  city: z.string(),
  /** A settlement or district within the city area; the `city` filter matches it too. */
  community: z.string().nullable(),
  /** "ул.", "пр-кт"…: what the aggregator's clients show before the street; null when not known. */
  streetType: z.string().nullable().optional(),
  street: z.string().nullable(),
  house: z.string().nullable(),
  block: z.string().nullable(),
  office: z.string().nullable(),
  address: z.string(),
  /** How to find the point, in the service's words; null when it gives none. */
  description: z.string().nullable().optional(),
  phone: z.string().nullable(),
  timetable: z.string().nullable(),
  worktime: worktimeSchema,
  fittingRoom: nullableFlag,
  cod: nullableFlag,
  paymentCash: nullableFlag,
  paymentCard: nullableFlag,
  availableOperation: z.union([z.literal(1), z.literal(2), z.literal(3)]),
  type: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)]),
  limits: pointLimitsSchema,
  enabled: flag,
});
export type Point = z.output<typeof pointSchema>;

export const tariffSchema = z.object({
  id: z.number().int(),
  providerKey: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  aliasName: z.string().nullable(),
  weightMin: z.number().nullable(),
  weightMax: z.number().nullable(),
  /** 1 from the door, 2 the client brings it to the service; null both. */
  pickupType: z.union([z.literal(1), z.literal(2)]).nullable(),
  /** 1 to the door, 2 to a pickup point; null both. */
  deliveryType: z.union([z.literal(1), z.literal(2)]).nullable(),
  /** 1 when the recipient may pay the cash-on-delivery amount in cash. */
  paymentCash: flag,
});
export type Tariff = z.output<typeof tariffSchema>;

export const serviceValueTypes = ['bool', 'string', 'int', 'float'] as const;

/** An additional service of a delivery service, ordered with `extraParams.{extraParamName}`. */
export const providerServiceSchema = z.object({
  providerKey: z.string(),
  name: z.string(),
  extraParamName: z.string(),
  valueType: z.enum(serviceValueTypes),
  description: z.string(),
});
export type ProviderService = z.output<typeof providerServiceSchema>;

/** `/lists/providers` record: the conventions' `{ key, name, description }` plus our `test` and `capabilities`. */
export const providerRecordSchema = z.object({
  key: z.string(),
  name: z.string(),
  description: z.string(),
  test: z.boolean(),
  capabilities: providerCapabilitiesSchema,
});
export type ProviderRecord = z.output<typeof providerRecordSchema>;

/** `/lists/statuses` record; `final` (our extension) marks states an order does not leave. */
export const statusRecordSchema = z.object({
  key: z.enum(statusKeys),
  name: z.string(),
  description: z.string(),
  final: z.boolean(),
});
export type StatusRecord = z.output<typeof statusRecordSchema>;

/** Records of the small numbered lists: pickup types, delivery types, payment methods, point types. */
export const typeRecordSchema = z.object({ id: z.number().int(), name: z.string(), description: z.string() });
export type TypeRecord = z.output<typeof typeRecordSchema>;

/** The envelope of the paged lists. */
export const pageMetaSchema = z.object({ total: z.number().int(), offset: z.number().int(), limit: z.number().int() });
export const pagedSchema = <T extends z.ZodType>(row: T) => z.object({ rows: z.array(row), meta: pageMetaSchema });

const searchText = z.string().trim().max(100);

/** The pickup-point picker of the order screen (command `lists.points`). */
export const pointSearchSchema = z.object({
  /** Words that must all appear in the name, address, code, post index or phone (case and ё insensitive). */
  search: searchText.optional(),
  providerKey: z.string().trim().min(1).max(50).optional(),
  /** The city, or a settlement/district within it. */
  city: searchText.optional(),
  /** Only points that take cash on delivery / have a fitting room. */
  cod: z.boolean().optional(),
  fittingRoom: z.boolean().optional(),
  types: z.array(z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)])).max(4).optional(),
  /** `issue`: may hand orders out (pointOutId); `acceptance`: may take them in (pointInId). */
  operation: z.enum(['issue', 'acceptance']).optional(),
  /** Only points whose limits take this parcel (grams, centimetres, rubles). */
  parcel: z
    .object({
      weight: z.number().nonnegative().optional(),
      length: z.number().nonnegative().optional(),
      width: z.number().nonnegative().optional(),
      height: z.number().nonnegative().optional(),
      codCost: z.number().nonnegative().optional(),
    })
    .optional(),
  /** Nearest first from here; otherwise by id. */
  near: z.object({ lat: z.number().min(-90).max(90), lng: z.number().min(-180).max(180) }).optional(),
  includeDisabled: z.boolean().default(false),
  limit: z.number().int().min(1).max(500).default(50),
  offset: z.number().int().min(0).default(0),
});
export type PointSearch = z.input<typeof pointSearchSchema>;

export const pointSearchPageSchema = z.object({ rows: z.array(pointSchema), total: z.number().int() });
export type PointSearchPage = z.output<typeof pointSearchPageSchema>;

/** Cities that have points, for the city box of the picker (command `lists.cities`). */
export const citySearchSchema = z.object({
  /** Start of the city (or settlement) name, case and ё insensitive. */
  search: searchText.optional(),
  providerKey: z.string().trim().min(1).max(50).optional(),
  limit: z.number().int().min(1).max(200).default(20),
});
export const cityRecordSchema = z.object({
  city: z.string(),
  region: z.string().nullable(),
  /** Enabled points in the city (of the provider, when one was given). */
  points: z.number().int(),
});
export type CityRecord = z.output<typeof cityRecordSchema>;

export const tariffSearchSchema = z.object({
  providerKey: z.string().trim().min(1).max(50).optional(),
  pickupType: z.union([z.literal(1), z.literal(2)]).optional(),
  deliveryType: z.union([z.literal(1), z.literal(2)]).optional(),
  /** Only tariffs whose weight range takes this many grams. */
  weight: z.number().nonnegative().optional(),
});

export const serviceSearchSchema = z.object({ providerKey: z.string().trim().min(1).max(50).optional() });
