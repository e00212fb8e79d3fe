import { messageCatalog } from './catalog';
import { formatMessage, type DateStyle, type ParamNames } from './format';

export { messageCatalog } from './catalog';
export { calendarDateText, formatMessage, placeholdersOf, type DateStyle, type MessageParams, type ParamNames } from './format';

export type MessageLanguage = 'ru' | 'en';
export type CoreMessageKey = keyof typeof messageCatalog;
type Catalog = typeof messageCatalog;

/**
 * A message as data: its key and parameters. A parameter may itself be a message, so a frame
 * ("{service} refused the order: {reason}") holds our own words or the service's text alike.
 */
export interface MessageRef {
  key: string;
  params?: Readonly<Record<string, MessageParam>>;
}
export type MessageParam = string | number | MessageRef;

type ParamsOf<K extends CoreMessageKey> = Record<ParamNames<Catalog[K]['en']>, MessageParam>;
type ParamArgs<K extends CoreMessageKey> = [ParamNames<Catalog[K]['en']>] extends [never] ? [] : [ParamsOf<K>];

const locales: Record<MessageLanguage, string> = { ru: 'ru-RU', en: 'en-GB' };
const isRef = (value: MessageParam): value is MessageRef => typeof value === 'object' && value !== null;
const entryOf = (key: string) => (Object.hasOwn(messageCatalog, key) ? messageCatalog[key as CoreMessageKey] : undefined);
const firstWire = (entry: Catalog[CoreMessageKey]): string => {
  const wire = 'wire' in entry ? entry.wire : undefined;
  return typeof wire === 'string' ? wire : (wire?.[0] ?? entry.en);
};

function render(ref: MessageRef, textOf: (key: string) => string | undefined, locale: string, dates: DateStyle = 'locale'): string {
  const text = textOf(ref.key);
  if (text === undefined) return ref.key;
  const params = ref.params && Object.fromEntries(Object.entries(ref.params).map(([name, value]) => [name, isRef(value) ? render(value, textOf, locale, dates) : value]));
  return formatMessage(text, params, locale, dates);
}

/** A catalog message by key: `message('order.duplicateNumber', { number: '1001' })`. */
export function message<K extends CoreMessageKey>(key: K, ...params: ParamArgs<K>): MessageRef {
  return params[0] ? { key, params: params[0] } : { key };
}

/** The English the interface sends integrators for a message (unchanged wording, whatever the UI says; dates YYYY-MM-DD). */
export const wireText = (ref: MessageRef): string => render(ref, (key) => { const e = entryOf(key); return e && firstWire(e); }, locales.en, 'iso');

/** A message in the person's language (the errors file, the renderer through its dictionaries). */
export const messageText = (ref: MessageRef, language: MessageLanguage): string =>
  render(ref, (key) => entryOf(key)?.[language], locales[language]);

/**
 * A field error that carries its key: `{ field, ...said('rule.pointClosed', { id }) }` gives the interface's
 * English `message` and, for the app, `key` and `params`.
 */
export function said<K extends CoreMessageKey>(key: K, ...params: ParamArgs<K>): { message: string } & MessageRef {
  const ref = message(key, ...params);
  return { message: wireText(ref), ...ref };
}

/** Fixed texts (no parameters) the core and the shared schemas send, by their wire English → their key. */
const keyByWireText: ReadonlyMap<string, CoreMessageKey> = new Map(
  (Object.keys(messageCatalog) as CoreMessageKey[]).flatMap((key) => {
    const entry: { en: string; wire?: string | readonly string[] } = messageCatalog[key];
    const texts = [entry.en, ...(entry.wire === undefined ? [] : typeof entry.wire === 'string' ? [entry.wire] : entry.wire)];
    return texts.filter((text) => !text.includes('{')).map((text) => [text.toLowerCase(), key] as const);
  }),
);

/** The key of a fixed message given as its English text ('must be a number' → 'msg.number'); undefined for any other text. */
export const keyOfWireText = (text: string): CoreMessageKey | undefined => keyByWireText.get(text.trim().toLowerCase());

/** The catalog in one language, key → text, with each text's literal type (the renderer's dictionaries spread it). */
export const catalogTexts = <L extends MessageLanguage>(language: L) =>
  Object.fromEntries(Object.entries(messageCatalog).map(([key, entry]) => [key, entry[language]])) as { readonly [K in CoreMessageKey]: Catalog[K][L] };

/** A fixed text as its message (so the window translates it), any other text as it is: a service's own words. */
export const fixedOrText = (text: string): MessageParam => {
  const key = keyOfWireText(text);
  return key ? { key } : text;
};

/** A message stored as JSON beside its English text; null when none was stored or it cannot be read. */
export function storedMessage(json: string | null | undefined): MessageRef | null {
  if (!json) return null;
  try {
    const value: unknown = JSON.parse(json);
    return value !== null && typeof value === 'object' && typeof (value as MessageRef).key === 'string' ? (value as MessageRef) : null;
  } catch {
    return null;
  }
}

/** A field error's message as a parameter: by its key when it has one, else its own words. */
export const reasonOf = (error: { message: string; key?: string; params?: MessageRef['params'] }): MessageParam =>
  error.key ? (error.params ? { key: error.key, params: error.params } : { key: error.key }) : error.message;

/**
 * Field errors as one reason, `field: message; field: message` on the wire and in each language: each field
 * kept as its path (the window shows its label), each message by its key where it has one.
 */
export function fieldReasons(errors: readonly { field: string; message: string; key?: string; params?: MessageRef['params'] }[]): MessageParam {
  const parts = errors.map((e): MessageParam => message('provider.fieldReason', { field: e.field, reason: reasonOf(e) }));
  return parts.reduceRight<MessageParam | undefined>((rest, first) => (rest === undefined ? first : message('msg.list', { first, rest })), undefined) ?? '';
}

/**
 * A field error as one line of text in a language (the import's errors file): `field: message`, the message
 * by its key when it has one, else as it was written.
 */
export function fieldErrorLine(error: { field: string; message: string; key?: string; params?: MessageRef['params'] }, language: MessageLanguage): string {
  const text = error.key && entryOf(error.key) ? messageText({ key: error.key, params: error.params }, language) : error.message;
  return `${error.field}: ${text}`;
}

/** A text or a `said()` message → the message as data; undefined for plain text (a service's own words). */
export const refOfSaid = (text: string | ({ message: string } & MessageRef)): MessageRef | undefined =>
  typeof text === 'string' ? undefined : text.params ? { key: text.key, params: text.params } : { key: text.key };
