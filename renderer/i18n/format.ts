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
  /** A spreadsheet's number as the language writes it, without grouping (a phone stored as a number stays whole): "990,5". */
  cellNumber: (value: number) => string;
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
  const cellNumber = new Intl.NumberFormat(locale, { useGrouping: false, maximumFractionDigits: 10 });
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
    cellNumber: (value) => cellNumber.format(value),
  };
}

const pad2 = (n: string) => n.padStart(2, '0');

/**
 * A typed day as "YYYY-MM-DD": "27.11.2026", "27/11/2026", "2026-11-27"; null while it is not a whole
 * real day yet (31.02 is not one).
 */
export function parseDay(text: string): string | null {
  const t = text.trim();
  const m = /^(\d{1,2})[./](\d{1,2})[./](\d{4})$/.exec(t) ?? /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(t);
  if (!m) return null;
  const [y, mo, d] = m[1].length === 4 ? [m[1], m[2], m[3]] : [m[3], m[2], m[1]];
  const date = new Date(Number(y), Number(mo) - 1, Number(d));
  if (date.getFullYear() !== Number(y) || date.getMonth() !== Number(mo) - 1 || date.getDate() !== Number(d)) return null;
  return `${y}-${pad2(mo)}-${pad2(d)}`;
}
