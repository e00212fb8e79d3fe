import { statusNames, type StatusKey } from '../status-keys';

/**
 * Message text with parameters: `{name}` is a value, `{name, plural, one=товар|few=товара|many=товаров|other=товара}`
 * picks the word form for the number `name` by the language's plural rules (Intl.PluralRules), so Russian says
 * "1 день", "3 дня", "5 дней", and `{name, date}` shows a calendar date given as YYYY-MM-DD in the language's
 * form (27.11.2026 in Russian, 27/11/2026 in British English), and `{name, status}` names an order's status key
 * (`onPointIn` → «Принят на склад службы доставки», shared/status-keys.ts) — each as it is on the wire with
 * `dates: 'iso'`. An unknown placeholder stays visible rather than vanishing.
 */
export type MessageParams = Readonly<Record<string, string | number>>;

const placeholder = /\{(\w+)(?:, plural, ([^{}]*)|, (date|status))?\}/g;
const pluralRules = new Map<string, Intl.PluralRules>();

function rulesFor(locale: string): Intl.PluralRules {
  let rules = pluralRules.get(locale);
  if (!rules) pluralRules.set(locale, (rules = new Intl.PluralRules(locale)));
  return rules;
}

/** `one=день|few=дня|many=дней|other=дня` → the form for `count`; `other` when the language's category is not given. */
function pluralForm(forms: string, count: number, locale: string): string {
  const byCategory = new Map(
    forms.split('|').map((form) => {
      const eq = form.indexOf('=');
      return [form.slice(0, eq).trim(), form.slice(eq + 1)] as const;
    }),
  );
  return byCategory.get(rulesFor(locale).select(count)) ?? byCategory.get('other') ?? '';
}

const dateFormats = new Map<string, Intl.DateTimeFormat>();

/** A calendar date (YYYY-MM-DD) in the locale's numeric form; any other value as it is. */
export function calendarDateText(value: string | number, locale: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(String(value).trim());
  if (!match) return String(value);
  let format = dateFormats.get(locale);
  if (!format) dateFormats.set(locale, (format = new Intl.DateTimeFormat(locale, { day: '2-digit', month: '2-digit', year: 'numeric', timeZone: 'UTC' })));
  return format.format(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
}

/** A status key by its name in the locale's language (Russian for ru-*, else English); any other value as it is. */
export function statusText(value: string | number, locale: string): string {
  const key = String(value);
  return Object.hasOwn(statusNames, key) ? statusNames[key as StatusKey][locale.toLowerCase().startsWith('ru') ? 'ru' : 'en'] : key;
}

/**
 * How `{name, date}` and `{name, status}` are written: for people in the locale's form (a date's numbers, a status's
 * name), or as given on the interface's wire (`iso`: YYYY-MM-DD, the status key).
 */
export type DateStyle = 'locale' | 'iso';

export function formatMessage(text: string, params: MessageParams | undefined, locale: string, dates: DateStyle = 'locale'): string {
  if (!params) return text;
  return text.replace(placeholder, (whole, name: string, forms: string | undefined, kind: 'date' | 'status' | undefined) => {
    if (!Object.hasOwn(params, name)) return whole;
    const value = params[name];
    if (kind) return dates === 'iso' ? String(value) : kind === 'date' ? calendarDateText(value, locale) : statusText(value, locale);
    if (forms === undefined) return String(value);
    const count = Number(value);
    return Number.isFinite(count) ? pluralForm(forms, count, locale) : whole;
  });
}

/** The parameter names a text takes, plural ones included, sorted (the catalog's test compares languages by them). */
export const placeholdersOf = (text: string): string[] => [...new Set([...text.matchAll(placeholder)].map((m) => m[1]))].sort();

type ParamName<P extends string> = P extends `${infer Name}, ${string}` ? Name : P;
/** Parameters a message text takes, read from it at compile time: 'Order {number} created' → 'number'. */
export type ParamNames<S extends string> = S extends `${string}{${infer P}}${infer Rest}` ? ParamName<P> | ParamNames<Rest> : never;
