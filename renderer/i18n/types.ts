import type { ParamNames } from '../../shared/messages';
import type { en } from './en';

export type Language = 'ru' | 'en';
export const languages: readonly Language[] = ['ru', 'en'];

type English = typeof en;
/** Every message key; the English dictionary defines them. */
export type MessageKey = keyof English;
/** A complete dictionary: a missing or an unknown key is a type error. */
export type Dictionary = { readonly [K in MessageKey]: string };

/** Parameters a message needs, read from its English text: 'Order {number} created' → 'number'. */
export type MessageParams<K extends MessageKey> = ParamNames<English[K]>;
/** Keys whose message takes no parameters, for places that call `t(key)` with a key from a table. */
export type PlainMessageKey = { [K in MessageKey]: [MessageParams<K>] extends [never] ? K : never }[MessageKey];
export type ParamValues<K extends MessageKey> = Record<MessageParams<K>, string | number>;

/** `t('orders.range', { from, to, total })`; parameters are required exactly when the message has them. */
export type Translate = <K extends MessageKey>(
  key: K,
  ...params: [MessageParams<K>] extends [never] ? [] : [ParamValues<K>]
) => string;
