import { z } from 'zod';
import {
  pointLimitsSchema, providerServiceSchema, tariffSchema, worktimeSchema, type Point, type PointLimits, type ProviderService, type Tariff,
} from '../../../shared/schemas/lists';

/**
 * The shipped reference data (resources/<dataset>/): a small manifest and three JSON files. Points
 * are stored compactly, as rows of values with the repeated parts (places, streets, schedules,
 * limits) in dictionaries; `expandPoints` turns them into wire records. The generator
 * (scripts/generate-sandbox-data.ts) writes this format and the loader reads it.
 */

export const manifestSchema = z.object({
  dataset: z.string().regex(/^[a-z0-9-]+$/),
  /** Content hash of the data files: the loader reloads only when it changes. */
  version: z.string().min(1),
  files: z.object({ points: z.string(), tariffs: z.string(), services: z.string() }),
});
export type Manifest = z.output<typeof manifestSchema>;

/** The columns of a compact point row, in order. */
export const pointColumns = [
  'id', 'provider', 'code', 'name', 'postIndex', 'lat', 'lng', 'place', 'street', 'house', 'block', 'office', 'phone',
  'schedule', 'fittingRoom', 'cod', 'paymentCash', 'paymentCard', 'availableOperation', 'type', 'limits', 'enabled',
] as const;

const text = z.string();
const optText = z.string().nullable();

type Flag = 0 | 1;
/** One point: the values of `pointColumns`; place, street, schedule, limits and a numeric name index the dictionaries. */
export type PointRow = [
  id: number, provider: number, code: string, name: string | number, postIndex: string | null, lat: number | null, lng: number | null,
  place: number, street: number | null, house: string | null, block: string | null, office: string | null, phone: string | null,
  schedule: number, fittingRoom: Flag | null, cod: Flag | null, paymentCash: Flag | null, paymentCard: Flag | null,
  availableOperation: 1 | 2 | 3, type: 1 | 2 | 3 | 4, limits: number, enabled: Flag,
];

/** The file without its rows: small, checked with zod. */
const pointsHeadSchema = z.object({
  format: z.literal(1),
  columns: z.array(z.string()).refine((c) => c.join() === pointColumns.join(), 'unknown point columns'),
  providers: z.array(text),
  /** [countryCode, region, city, community, the place as written in an address]. */
  places: z.array(z.tuple([text, optText, text, optText, text])),
  streets: z.array(text),
  /** Name templates: `{where}` is `street, house` (or `корп. block`), `{postIndex}` the index. */
  names: z.array(text),
  /** [timetable, worktime]. */
  schedules: z.array(z.tuple([text, worktimeSchema])),
  limits: z.array(pointLimitsSchema),
  rows: z.array(z.unknown()),
});
export type PointsFile = Omit<z.output<typeof pointsHeadSchema>, 'rows'> & { rows: PointRow[] };

const isInt = (v: unknown): v is number => Number.isSafeInteger(v);
const isIndexInto = (list: unknown[]) => (v: unknown) => isInt(v) && v >= 0 && v < list.length;
const isText = (v: unknown) => typeof v === 'string';
const orNull = (check: (v: unknown) => boolean) => (v: unknown) => v === null || check(v);
const oneOf = (...values: unknown[]) => (v: unknown) => values.includes(v);
const isFlag = oneOf(0, 1);

/**
 * Checks a parsed points file. The ~10,000 rows are checked by hand (a zod tuple schema costs a
 * tenth of a second at every load); every dictionary index must point into its dictionary.
 */
export const pointsFileSchema = pointsHeadSchema.transform((head, ctx): PointsFile => {
  const checks: ((v: unknown) => boolean)[] = [
    (v) => isInt(v) && v > 0, isIndexInto(head.providers), isText, (v) => isText(v) || isIndexInto(head.names)(v), orNull(isText),
    orNull((v) => typeof v === 'number' && Number.isFinite(v)), orNull((v) => typeof v === 'number' && Number.isFinite(v)),
    isIndexInto(head.places), orNull(isIndexInto(head.streets)), orNull(isText), orNull(isText), orNull(isText), orNull(isText),
    isIndexInto(head.schedules), orNull(isFlag), orNull(isFlag), orNull(isFlag), orNull(isFlag), oneOf(1, 2, 3), oneOf(1, 2, 3, 4),
    isIndexInto(head.limits), isFlag,
  ];
  const ids = new Set<number>();
  let issues = 0;
  const issue = (path: (string | number)[], message: string) => {
    if (issues++ < 10) ctx.addIssue({ code: 'custom', path, message });
  };
  head.rows.forEach((row, i) => {
    if (!Array.isArray(row) || row.length !== checks.length) return issue(['rows', i], `a point row has ${checks.length} values`);
    const bad = checks.findIndex((check, c) => !check(row[c]));
    if (bad >= 0) return issue(['rows', i, bad], `bad ${pointColumns[bad]}: ${JSON.stringify(row[bad])}`);
    if (ids.has(row[0])) issue(['rows', i, 0], `duplicate id ${row[0]}`);
    ids.add(row[0]);
  });
  return head as PointsFile;
});

export const tariffsFileSchema = z.array(tariffSchema);
export const servicesFileSchema = z.array(providerServiceSchema);

/** `125009, г. Москва, ул. Тверская, д. 7, корп. 1, оф. 12`. */
export function formatAddress(parts: { postIndex: string | null; place: string; street: string | null; house: string | null; block: string | null; office: string | null }) {
  return [
    parts.postIndex,
    parts.place,
    parts.street,
    parts.house && `д. ${parts.house}`,
    parts.block && `корп. ${parts.block}`,
    parts.office && `оф. ${parts.office}`,
  ]
    .filter(Boolean)
    .join(', ');
}

const fillName = (template: string, where: string, postIndex: string | null) =>
  template.replaceAll('{where}', where).replaceAll('{postIndex}', postIndex ?? '');

/** Wire records of a compact points file. Indexes into the dictionaries are checked. */
export function expandPoints(file: PointsFile): Point[] {
  const at = <T>(list: T[], i: number, what: string, id: number): T => {
    if (i >= list.length) throw new Error(`point ${id}: ${what} ${i} is not in the dictionary`);
    return list[i];
  };
  return file.rows.map((r) => {
    const [
      id, provider, code, name, postIndex, lat, lng, placeIx, streetIx, house, block, office, phone,
      scheduleIx, fittingRoom, cod, paymentCash, paymentCard, availableOperation, type, limitsIx, enabled,
    ] = r;
    const [countryCode, region, city, community, addressPlace] = at(file.places, placeIx, 'place', id);
    const street = streetIx === null ? null : at(file.streets, streetIx, 'street', id);
    const where = street ? `${street}, ${house ?? ''}` : `корп. ${block ?? ''}`;
    const [timetable, worktime] = at(file.schedules, scheduleIx, 'schedule', id);
    const limits: PointLimits = { ...at(file.limits, limitsIx, 'limits', id) };
    return {
      id,
      providerKey: at(file.providers, provider, 'provider', id),
      code,
      name: typeof name === 'string' ? name : fillName(at(file.names, name, 'name', id), where, postIndex),
      postIndex,
      lat,
      lng,
      countryCode,
      region,
      city,
      community,
      street,
      house,
      block,
      office,
      address: formatAddress({ postIndex, place: addressPlace, street, house, block, office }),
      phone,
      timetable,
      worktime: { ...worktime },
      fittingRoom,
      cod,
      paymentCash,
      paymentCard,
      availableOperation,
      type,
      limits,
      enabled,
    };
  });
}

export type { Point, ProviderService, Tariff };
