import { moscowDay } from '../../../shared/time';

/**
 * The sending date the dispatch screen offers for Russian Post batches: today as the service counts it (in Moscow),
 * not the computer's own day, which is still yesterday after 21:00 UTC west of Moscow.
 */
export const defaultSendingDate = (now: number = Date.now()): string => moscowDay(now);
