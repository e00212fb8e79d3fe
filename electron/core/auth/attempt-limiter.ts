/**
 * Failed logins per key (the caller's address, the login tried) in a sliding window: past `max` failures
 * the key is refused until the oldest falls out. Bounded: at most `maxKeys` keys are tracked, the
 * stalest dropped first.
 */
export function createAttemptLimiter({ max = 10, windowMs = 60_000, maxKeys = 10_000, now = () => Date.now() } = {}) {
  const failures = new Map<string, number[]>();
  const recent = (key: string) => {
    const since = now() - windowMs;
    const list = (failures.get(key) ?? []).filter((at) => at > since);
    if (list.length) failures.set(key, list);
    else failures.delete(key);
    return list;
  };
  return {
    /** Milliseconds until the key may try again; 0 when it may now. */
    retryAfter(key: string): number {
      const list = recent(key);
      return list.length < max ? 0 : Math.max(1, list[list.length - max] + windowMs - now());
    },
    fail(key: string): void {
      const list = recent(key);
      failures.delete(key);
      failures.set(key, [...list, now()]);
      if (failures.size > maxKeys) failures.delete(failures.keys().next().value as string);
    },
    succeed(key: string): void {
      failures.delete(key);
    },
  };
}
