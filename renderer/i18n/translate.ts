import { formatMessage } from '../../shared/messages';
import { en } from './en';
import { ru } from './ru';
import type { Dictionary, Language, MessageKey, Translate } from './types';

export const dictionaries: Readonly<Record<Language, Dictionary>> = { en, ru };

export const isMessageKey = (key: string): key is MessageKey => Object.hasOwn(en, key);

/** Fills `{name}` placeholders and plural forms (shared/messages/format.ts); an unknown placeholder stays visible. */
export const interpolate = (text: string, params?: Readonly<Record<string, string | number>>, language: Language = 'en'): string =>
  formatMessage(text, params, intlLocale(language));

/** A `t()` bound to one language. */
export function createTranslate(language: Language): Translate {
  const dictionary = dictionaries[language];
  return ((key: MessageKey, params?: Record<string, string | number>) => interpolate(dictionary[key] ?? en[key], params, language)) as Translate;
}

/** Translates a key built at run time (error codes, field names); undefined when there is no such key. */
export function translateDynamic(t: Translate, key: string, params?: Record<string, string | number>): string | undefined {
  if (!isMessageKey(key)) return undefined;
  return (t as (k: MessageKey, p?: Record<string, string | number>) => string)(key, params);
}

/** The saved choice if there is one, else Russian for a Russian system, else English. */
export function detectLanguage(saved: string | null | undefined, systemLanguage: string | undefined): Language {
  if (saved === 'ru' || saved === 'en') return saved;
  return systemLanguage?.toLowerCase().startsWith('ru') ? 'ru' : 'en';
}

/** BCP 47 tag for Intl formatters; English uses day-first British dates, like the rest of the shop's papers. */
export const intlLocale = (language: Language): string => (language === 'ru' ? 'ru-RU' : 'en-GB');
