import type { App } from '../../electron/core/app';
import { backoffDelay } from '../../electron/core/outbox/backoff';

/**
 * Runs the outbox until nothing is pending (or `maxPasses` passes), moving the hand-driven clock past every
 * queued retry after each pass, so backoffs, Retry-After waits and breaker pauses pass without sleeping and
 * each pass retries every order that failed before (backoffs are jittered: failures of one pass come back
 * spread out). Returns the attempts made and the passes it took.
 */
export async function drainOutbox(app: App, clock: { now(): number; set(ms: number): void }, maxPasses = 300): Promise<{ attempts: number; passes: number }> {
  let attempts = 0;
  let passes = 0;
  while ((await app.outbox.state()).pending > 0 && passes < maxPasses) {
    attempts += await app.outbox.drain();
    passes++;
    const last = await app.db.selectFrom('outbox').select((eb) => eb.fn.max('next_attempt_at').as('at')).executeTakeFirst();
    clock.set(Math.max(clock.now() + backoffDelay(1), Number(last?.at ?? 0)));
  }
  return { attempts, passes };
}
