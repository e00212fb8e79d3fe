import { intlLocale } from './translate';
import type { Language } from './types';

export interface Formatters {
  /** Rubles: "1 250,00 ₽" / "₽1,250.00". */
  money: (rubles: number) => string;
  /** Local date and time of an ISO timestamp; the input itself when it is not a date. */
  dateTime: (iso: string) => string;
  /** A plain integer with grouping. */
  count: (value: number) => string;
}

/** Intl formatters for one language, built once per language switch. */
export function createFormatters(language: Language): Formatters {
  const locale = intlLocale(language);
  const money = new Intl.NumberFormat(locale, {
    style: 'currency',
    currency: 'RUB',
    currencyDisplay: 'narrowSymbol',
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  });
  const dateTime = new Intl.DateTimeFormat(locale, { dateStyle: 'short', timeStyle: 'short' });
  const count = new Intl.NumberFormat(locale, { maximumFractionDigits: 0 });
  return {
    money: (rubles) => money.format(rubles),
    dateTime: (iso) => {
      const date = new Date(iso);
      return Number.isNaN(date.getTime()) ? iso : dateTime.format(date);
    },
    count: (value) => count.format(value),
  };
}
