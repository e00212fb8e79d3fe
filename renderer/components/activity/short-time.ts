import { intlLocale } from '../../i18n/translate';
import type { Language } from '../../i18n/types';

/**
 * A moment for the header: the time alone when it is today, else the date and time; `seconds` for
 * moments a few seconds apart (the outbox's next attempt).
 */
export function shortTime(iso: string, language: Language, options: { seconds?: boolean; now?: Date } = {}): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const timeStyle = options.seconds ? 'medium' : 'short';
  const sameDay = date.toDateString() === (options.now ?? new Date()).toDateString();
  return new Intl.DateTimeFormat(intlLocale(language), sameDay ? { timeStyle } : { dateStyle: 'short', timeStyle }).format(date);
}
