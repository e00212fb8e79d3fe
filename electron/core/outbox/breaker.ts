import type { Clock } from '../clock';

export interface BreakerOptions {
  /** Failures in a row that open the breaker. */
  failuresToOpen?: number;
  /** How long it stays open before one trial call; doubled after each failed trial, up to maxOpenMs. */
  openMs?: number;
  maxOpenMs?: number;
}

export type BreakerState = 'closed' | 'open' | 'half-open';

/**
 * A circuit breaker for one delivery service, on the app's injected clock (cockatiel, the library we would
 * use, reads Date.now() itself, so tests with a hand-driven clock could not move it). Closed: calls go.
 * After `failuresToOpen` failures in a row it opens: no calls, so the service's orders wait in the queue
 * without using up their attempts. After `openMs` one trial call goes (half-open): success closes it,
 * failure opens it again for twice as long.
 */
export function createBreaker(clock: Clock, options: BreakerOptions = {}) {
  const failuresToOpen = options.failuresToOpen ?? 20;
  const firstOpenMs = options.openMs ?? 30_000;
  const maxOpenMs = options.maxOpenMs ?? 10 * 60_000;
  let failures = 0;
  let openedAt: number | null = null;
  let openMs = firstOpenMs;
  let trialOut = false;

  const state = (): BreakerState => (openedAt === null ? 'closed' : clock.now() - openedAt >= openMs ? 'half-open' : 'open');

  return {
    state,
    /** When an open breaker lets its trial call go. */
    trialAt: () => (openedAt === null ? null : openedAt + openMs),
    /** Whether a call may start now, given how many of the service's calls are out; a half-open breaker lets one go. */
    admits(inFlight: number): boolean {
      const now = state();
      return now === 'closed' || (now === 'half-open' && inFlight === 0 && !trialOut);
    },
    /** Marks the call about to start; true when it is the trial of a half-open breaker. */
    start(): boolean {
      if (state() !== 'half-open') return false;
      trialOut = true;
      return true;
    },
    success(): void {
      failures = 0;
      openedAt = null;
      openMs = firstOpenMs;
      trialOut = false;
    },
    /** Counts a failed call; true when it (re)opened the breaker. */
    failure(trial: boolean): boolean {
      if (trial) {
        trialOut = false;
        openMs = Math.min(openMs * 2, maxOpenMs);
        openedAt = clock.now();
        return true;
      }
      if (openedAt !== null) return false; // calls that were already out when it opened tell nothing new
      failures++;
      if (failures < failuresToOpen) return false;
      openedAt = clock.now();
      return true;
    },
  };
}

export type Breaker = ReturnType<typeof createBreaker>;
