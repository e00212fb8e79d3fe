import { formatTimestamp } from '../../../shared/time';

/** Calendar dates (YYYY-MM-DD) in the shop's own time zone, the one formatTimestamp writes. */

/** The shop's date at this moment. */
export const localDate = (ms: number): string => formatTimestamp(ms).slice(0, 10);

/** The shop's hour of the day (0–23) at this moment. */
export const localHour = (ms: number): number => Number(formatTimestamp(ms).slice(11, 13));

const utc = (date: string) => Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10)));

/** The date `days` later (or earlier). */
export const addDays = (date: string, days: number): string => new Date(utc(date) + days * 86_400_000).toISOString().slice(0, 10);

/** 0 Sunday … 6 Saturday. */
export const weekday = (date: string): number => new Date(utc(date)).getUTCDay();
