/**
 * Failed sign-ins counted per key (a name, an address) over a sliding window; past the limit the key
 * waits until its oldest failure leaves the window. Kept in memory: a restart forgives, which costs an
 * attacker a restart of the shop's PC, not a faster guess.
 */
export function createAttemptLimiter(options: { limit: number; windowMs: number; now: () => number }) {
  const failures = new Map<string, number[]>();

  const recent = (key: string) => {
    const since = options.now() - options.windowMs;
    const kept = (failures.get(key) ?? []).filter((at) => at > since);
    if (kept.length) failures.set(key, kept);
    else failures.delete(key);
    return kept;
  };

  return {
    /** Milliseconds the key must wait before its next attempt; 0 when it may try now. */
    waitFor(key: string): number {
      const kept = recent(key);
      return kept.length < options.limit ? 0 : kept[kept.length - options.limit] + options.windowMs - options.now();
    },
    fail(key: string): void {
      failures.set(key, [...recent(key), options.now()]);
    },
    /** A success clears the key's failures (the name's, not the address's: one user's success does not unlock guessing others). */
    forgive(key: string): void {
      failures.delete(key);
    },
  };
}

export type AttemptLimiter = ReturnType<typeof createAttemptLimiter>;
