import { useMemo } from 'react';
import { createFormatters, type Formatters } from './format';
import { useLocaleStore } from './locale-store';
import { createTranslate } from './translate';
import type { Language, Translate } from './types';

const translators = new Map<Language, Translate>();
const formatters = new Map<Language, Formatters>();

/** The current language. */
export const useLanguage = (): Language => useLocaleStore((s) => s.language);

/** `t()` in the current language; components re-render when the language changes. */
export function useT(): Translate {
  const language = useLanguage();
  return useMemo(() => {
    let t = translators.get(language);
    if (!t) translators.set(language, (t = createTranslate(language)));
    return t;
  }, [language]);
}

/** Money and date formatters of the current language. */
export function useFormat(): Formatters {
  const language = useLanguage();
  return useMemo(() => {
    let f = formatters.get(language);
    if (!f) formatters.set(language, (f = createFormatters(language)));
    return f;
  }, [language]);
}
