/** The first wait after a failed call, by default (`npm run serve -- --retry-seconds` sets another). */
export const FIRST_RETRY_MS = 2_000;

/** From `firstMs`, doubled with each failed attempt, capped at 10 minutes. */
const doubling = (attempts: number, firstMs: number) => Math.min(firstMs * 2 ** Math.max(0, attempts - 1), 600_000);

/** Somewhere in the upper half of `most`. */
const jittered = (most: number, random: () => number) => Math.round(most / 2 + (most / 2) * random());

/** Delay before attempt n+1 after n failed attempts, at most: 2 s, 4 s, 8 s … capped at 10 minutes. */
export function backoffDelay(attempts: number): number {
  return doubling(attempts, FIRST_RETRY_MS);
}

/**
 * The delay actually waited: somewhere in the upper half of backoffDelay, so the orders that failed together
 * (a service that was down for a minute) do not all come back in the same second. Never longer than
 * backoffDelay, so waiting that long always makes the job due.
 */
export function jitteredBackoff(attempts: number, random: () => number = Math.random): number {
  return jittered(backoffDelay(attempts), random);
}

/** jitteredBackoff starting from another first wait (`--retry-seconds`; tests: a short one). */
export const jitteredBackoffFrom = (firstMs: number) => (attempts: number) => jittered(doubling(attempts, firstMs), Math.random);

/**
 * How many failed attempts a job gets before it ends in uploadingError (see outbox.ts for what counts): with
 * the backoff above, about two hours of a service answering this order with errors.
 */
export const MAX_FAILED_ATTEMPTS = 20;
