import type { App } from '../../electron/core/app';

/**
 * Runs the outbox until nothing is pending (or `maxPasses` passes), moving the hand-driven clock to the next
 * retry after each pass, so backoffs and Retry-After waits pass without sleeping. Returns the attempts made.
 */
export async function drainOutbox(app: App, clock: { now(): number; set(ms: number): void }, maxPasses = 300): Promise<{ attempts: number; passes: number }> {
  let attempts = 0;
  let passes = 0;
  while ((await app.outbox.state()).pending > 0 && passes < maxPasses) {
    attempts += await app.outbox.drain();
    passes++;
    const next = await app.db.selectFrom('outbox').select((eb) => eb.fn.min('next_attempt_at').as('at')).executeTakeFirst();
    if (next?.at !== null && next?.at !== undefined) clock.set(Math.max(clock.now(), Number(next.at)));
  }
  return { attempts, passes };
}
