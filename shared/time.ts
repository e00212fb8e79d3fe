const pad = (n: number, width = 2) => String(Math.trunc(Math.abs(n))).padStart(width, '0');

/**
 * ISO 8601 with the local UTC offset and no milliseconds (`2026-03-01T10:15:17+03:00`), the form the
 * interface uses. The offset is the machine's, so a shop in Moscow sees its own clock.
 */
export function formatTimestamp(ms: number, offsetMinutes = -new Date(ms).getTimezoneOffset()): string {
  const local = new Date(ms + offsetMinutes * 60_000);
  const sign = offsetMinutes >= 0 ? '+' : '-';
  return (
    `${local.getUTCFullYear()}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}` +
    `T${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}` +
    `${sign}${pad(offsetMinutes / 60)}:${pad(offsetMinutes % 60)}`
  );
}

/** Parses an ISO 8601 date or timestamp (with or without offset) to epoch ms; NaN when it is not one. */
export function parseTimestamp(text: string): number {
  if (!/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(text.trim())) return Number.NaN;
  return Date.parse(text.trim().replace(' ', 'T').replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
}

/** Moscow keeps UTC+3 all year (no summer time since 2014). */
const MOSCOW_OFFSET_MS = 3 * 60 * 60_000;

/**
 * The calendar day in Moscow at an instant (`YYYY-MM-DD`): the day Russian Post counts sending dates by, whatever
 * the shop's own zone (Kaliningrad, a PC set to UTC are still on the previous day after 21:00 UTC).
 */
export const moscowDay = (ms: number): string => new Date(ms + MOSCOW_OFFSET_MS).toISOString().slice(0, 10);
