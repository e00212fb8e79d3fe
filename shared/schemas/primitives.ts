import { z } from 'zod';

/**
 * Wire primitives. XML bodies carry every value as text and PHP-era clients often send numbers
 * as strings, so numeric and boolean fields accept both forms; anything else is a type error.
 */
const decimalText = /^-?\d+(\.\d+)?$/;

export const numberLike = z.union(
  [z.number().finite(), z.string().trim().regex(decimalText, 'must be a number').transform(Number)],
  { error: 'must be a number' },
);

/**
 * What a parcel can be. A number past these is a typo or an attack (`1e308` grams), refused with a field
 * error instead of stored; the OpenAPI reference quotes them (Values).
 */
export const PARCEL_LIMITS = {
  /** Weights in grams: a tonne. */
  maxGrams: 1_000_000,
  /** Length, width and height in centimetres: ten metres. */
  maxCentimetres: 1_000,
  /** Pieces of one item. */
  maxQuantity: 100_000,
} as const;

/** A whole number that a double holds exactly: 9007199254740993 would silently become …992. */
const wholeNumber = z.number().superRefine((v, ctx) => {
  if (!Number.isInteger(v)) ctx.addIssue({ code: 'custom', message: 'must be a whole number' });
  else if (!Number.isSafeInteger(v)) ctx.addIssue({ code: 'custom', message: `must be at most ${Number.MAX_SAFE_INTEGER} (a safe integer)` });
});

export const positiveNumber = numberLike.pipe(z.number().positive('must be greater than 0'));
export const nonNegativeNumber = numberLike.pipe(z.number().min(0, 'must not be negative'));
export const positiveInt = numberLike.pipe(wholeNumber.pipe(z.number().positive('must be greater than 0')));

const atMost = (max: number, unit: string) => z.number().max(max, `must be at most ${max.toLocaleString('en').replace(/,/g, ' ')} ${unit}`);
/** A weight in grams, above 0 (a parcel, an order). */
export const grams = positiveNumber.pipe(atMost(PARCEL_LIMITS.maxGrams, 'g'));
/** A weight in grams that may be 0 (an item). */
export const gramsOrZero = nonNegativeNumber.pipe(atMost(PARCEL_LIMITS.maxGrams, 'g'));
/** A side in centimetres, above 0. */
export const centimetres = positiveNumber.pipe(atMost(PARCEL_LIMITS.maxCentimetres, 'cm'));
/** A side in centimetres that may be 0 (an item). */
export const centimetresOrZero = nonNegativeNumber.pipe(atMost(PARCEL_LIMITS.maxCentimetres, 'cm'));
/** How many pieces of an item. */
export const quantity = positiveInt.pipe(atMost(PARCEL_LIMITS.maxQuantity, 'pieces'));

/** Rubles with at most two decimals (kopecks); stored as integer kopecks. */
export const money = numberLike.pipe(
  z
    .number()
    .min(0, 'must not be negative')
    .max(100_000_000, 'is too large')
    .refine((v) => Math.abs(Math.round(v * 100) - v * 100) < 1e-6, 'must have at most two decimals (kopecks)'),
);

export const booleanLike = z.union(
  [
    z.boolean(),
    z.literal(1).transform(() => true),
    z.literal(0).transform(() => false),
    z.enum(['1', '0', 'true', 'false']).transform((v) => v === '1' || v === 'true'),
  ],
  { error: 'must be true or false (1 or 0)' },
);

/**
 * A finite number as its decimal text: integrators send clientNumber, phones, house numbers, postal codes,
 * articles and barcodes as JSON numbers (10045), just as numeric fields accept decimal text. Numbers whose
 * text is not plain decimals (1e+21) stay numbers and fail as a type error rather than change silently.
 */
const numberAsText = (v: unknown, ctx: { addIssue(issue: { code: 'custom'; message: string }): void }) => {
  if (typeof v !== 'number') return v;
  // 9007199254740993 arrives as …992: its text is already wrong, so it is refused, not kept.
  if (Number.isInteger(v) && !Number.isSafeInteger(v)) {
    ctx.addIssue({ code: 'custom', message: `is a number past ${Number.MAX_SAFE_INTEGER}: send it as text to keep every digit` });
    return z.NEVER;
  }
  return decimalText.test(String(v)) ? String(v) : v;
};

/** A string field that also takes a number as its decimal text (see numberAsText). */
export const textLike = <S extends z.ZodType>(schema: S) => z.preprocess<unknown, S, z.input<S> | number>(numberAsText, schema);

export const text = (max = 255) => textLike(z.string().trim().min(1, 'must not be empty').max(max, `must be at most ${max} characters`));
export const optionalText = (max = 255) =>
  textLike(
    z
      .string()
      .trim()
      .max(max, `must be at most ${max} characters`)
      .optional()
      .transform((v) => (v === '' ? undefined : v)),
  );

/** A phone number as people write it: digits with an optional +, spaces, dashes and brackets. */
export const phoneNumber = textLike(z.string().trim().regex(/^\+?[\d\s\-()]{5,20}$/, 'must be a phone number'));

/** A phone number that may be left out (blank is "not given"). */
export const optionalPhoneNumber = optionalText(30).refine((v) => v === undefined || /^\+?[\d\s\-()]{5,20}$/.test(v), 'must be a phone number');

/** A query value, a JSON value or an XML element: one value or a list of them becomes a list (an empty element none). */
export const asList = (value: unknown) => (value === '' ? [] : typeof value === 'string' || typeof value === 'number' ? [value] : value);

/** HH:MM or HH:MM:SS, 24-hour clock. */
export const timeOfDay = z
  .string()
  .trim()
  .regex(/^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/, 'must be a time HH:MM')
  .transform((v) => v.slice(0, 5));

/** YYYY-MM-DD calendar date. */
export const calendarDate = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD')
  .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)), 'must be a real date');

/** Country names shops and their customers write instead of the code (folded: lower case, ё as е, no dots). */
const countryNames: Readonly<Record<string, string>> = {
  россия: 'RU', рф: 'RU', 'российская федерация': 'RU', russia: 'RU', 'russian federation': 'RU',
  беларусь: 'BY', белоруссия: 'BY', belarus: 'BY', казахстан: 'KZ', kazakhstan: 'KZ', армения: 'AM', armenia: 'AM',
  кыргызстан: 'KG', киргизия: 'KG', kyrgyzstan: 'KG', узбекистан: 'UZ', uzbekistan: 'UZ',
};
const foldCountry = (v: unknown) => (typeof v === 'string' ? v.trim().toLowerCase().replace(/ё/g, 'е').replace(/\./g, '').replace(/\s+/g, ' ') : v);

/** A two-letter ISO 3166-1 code; a country's name ("Россия", "Russia") is taken as its code. */
export const countryCode = z.preprocess(
  (v) => countryNames[foldCountry(v) as string] ?? v,
  z
    .string()
    .trim()
    .regex(/^[A-Za-z]{2}$/, 'must be a two-letter ISO 3166-1 country code')
    .transform((v) => v.toUpperCase()),
);

/**
 * An optional field where an empty value means "not given": XML clients write `<length/>` and
 * spreadsheets leave cells blank for what they do not know.
 */
export const blankAsMissing = <S extends z.ZodType>(schema: S) =>
  z.preprocess((v) => (v === '' || v === null ? undefined : v), schema.optional());

/**
 * JSON `null` in an object means "not given", as leaving the field out does: PHP and 1C clients write null
 * for what they do not have. Applied once to a whole payload (every object, at any depth), so an optional
 * field accepts null and a required one given null reads as missing ("is required"). Nulls inside arrays
 * stay: a null place is not a place. The input is copied only where a null is found. Only the first
 * `depth` levels are looked at (an order is 6 deep): a hostile body nested 100 000 deep must not
 * exhaust the stack, and the schema refuses or drops whatever lies deeper.
 */
export function withoutNullFields(value: unknown, depth = 8): unknown {
  if (depth === 0) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    value.forEach((entry, i) => {
      const clean = withoutNullFields(entry, depth - 1);
      if (clean !== entry) (copy ??= [...value])[i] = clean;
    });
    return copy ?? value;
  }
  if (value === null || typeof value !== 'object') return value;
  let copy: Record<string, unknown> | undefined;
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    const entry = (value as Record<string, unknown>)[key];
    const clean = entry === null ? undefined : withoutNullFields(entry, depth - 1);
    if (clean === entry) continue;
    copy ??= { ...(value as Record<string, unknown>) };
    if (clean === undefined) delete copy[key];
    else copy[key] = clean;
  }
  return copy ?? value;
}

/** A payload schema whose objects take JSON null as "not given" (withoutNullFields). */
export const nullsAsMissing = <S extends z.ZodType>(schema: S) => z.preprocess<unknown, S, z.input<S>>((v) => withoutNullFields(v), schema);
