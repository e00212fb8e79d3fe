import { parseTimestamp } from '../../../shared/time';
import { validationError } from '../errors';

const dateOnly = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * A date or timestamp from a path or query string to epoch ms, or NaN.
 * - `2026-03-01` is local midnight: the shop's day, as formatTimestamp shows times in the shop's offset.
 * - `2026-03-01T10:15:17+03:00`, `…Z`, `…+0300`, and without offset (local time).
 * - An unencoded `+` in a query string arrives as a space (`…T10:15:17 03:00`); it is read as `+`.
 */
export function parseMoment(raw: string): number {
  const text = raw.trim().replace(/^(\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?) (\d{2}:?\d{2})$/, '$1+$2');
  if (!realCalendarDate(text)) return Number.NaN; // Date.parse rolls 2026-02-30 over into March
  const day = dateOnly.exec(text);
  if (day) return new Date(Number(day[1]), Number(day[2]) - 1, Number(day[3])).getTime();
  return parseTimestamp(text);
}

/** Whether the text starts with a YYYY-MM-DD that is a day of the calendar. */
function realCalendarDate(text: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(text);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
}

/** Like parseMoment, but a missing or bad value is a 040002 error naming the field. */
export function requireMoment(raw: string | null | undefined, field: string): number {
  if (raw === null || raw === undefined || raw.trim() === '') throw validationError([{ field, message: 'is required' }]);
  const ms = parseMoment(raw);
  if (Number.isNaN(ms)) {
    throw validationError([{ field, message: 'must be an ISO 8601 date or timestamp, e.g. 2026-03-01 or 2026-03-01T10:15:17+03:00' }]);
  }
  return ms;
}

/** True when the text is a calendar date without a time. */
export const isDateOnly = (raw: string) => dateOnly.test(raw.trim());
