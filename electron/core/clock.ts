/** Time is injected so tests and the sandbox services' status timelines are deterministic. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock the tests move by hand. */
export function manualClock(start = Date.UTC(2026, 2, 1, 7, 0, 0)): Clock & { advance(ms: number): void; set(ms: number): void } {
  let current = start;
  return {
    now: () => current,
    advance: (ms) => {
      current += ms;
    },
    set: (ms) => {
      current = ms;
    },
  };
}
