import { intlLocale } from '../../i18n/translate';
import type { Language } from '../../i18n/types';

/** A moment for the header: the time alone when it is today, else the date and time. */
export function shortTime(iso: string, language: Language, now = new Date()): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const sameDay = date.toDateString() === now.toDateString();
  return new Intl.DateTimeFormat(intlLocale(language), sameDay ? { timeStyle: 'short' } : { dateStyle: 'short', timeStyle: 'short' }).format(date);
}
