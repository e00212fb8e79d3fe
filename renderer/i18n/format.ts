import { intlLocale } from './translate';
import type { Language } from './types';

export interface Formatters {
  /** Rubles: "1 250,00 ₽" / "₽1,250.00". */
  money: (rubles: number) => string;
  /** Local date and time of an ISO timestamp; the input itself when it is not a date. */
  dateTime: (iso: string) => string;
  /** A calendar day "YYYY-MM-DD" as the language writes it ("27.11.2026"); the input itself when it is not one. */
  date: (ymd: string) => string;
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
  const day = new Intl.DateTimeFormat(locale, { day: '2-digit', month: '2-digit', year: 'numeric' });
  const count = new Intl.NumberFormat(locale, { maximumFractionDigits: 0 });
  return {
    money: (rubles) => money.format(rubles),
    dateTime: (iso) => {
      const date = new Date(iso);
      return Number.isNaN(date.getTime()) ? iso : dateTime.format(date);
    },
    date: (ymd) => {
      const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(ymd);
      // A calendar day, not a moment: built in local time so no time zone moves it to the day before.
      return m ? day.format(new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) : ymd;
    },
    count: (value) => count.format(value),
  };
}
