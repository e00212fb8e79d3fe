import type { Clock } from '../clock';

/** One-shot timers, injected so a test moves time by hand instead of sleeping. `set` answers a cancel. */
export interface Timers {
  set(fn: () => void, ms: number): () => void;
}

/** Real timers that do not keep the process alive on their own. */
export const systemTimers: Timers = {
  set(fn, ms) {
    const handle = setTimeout(fn, ms);
    handle.unref?.();
    return () => clearTimeout(handle);
  },
};

/** Timers on a manual clock: `fireDue()` runs those whose time has come after `clock.advance`. */
export function manualTimers(clock: Clock) {
  const pending = new Set<{ at: number; fn: () => void }>();
  return {
    set(fn: () => void, ms: number) {
      const timer = { at: clock.now() + Math.max(0, ms), fn };
      pending.add(timer);
      return () => {
        pending.delete(timer);
      };
    },
    /** Runs every timer that is due now, earliest first; answers how many ran. */
    fireDue(): number {
      const due = [...pending].filter((t) => t.at <= clock.now()).sort((a, b) => a.at - b.at);
      for (const t of due) {
        pending.delete(t);
        t.fn();
      }
      return due.length;
    },
    /** When the earliest timer is due, or null. */
    nextAt(): number | null {
      return pending.size ? Math.min(...[...pending].map((t) => t.at)) : null;
    },
    get size() {
      return pending.size;
    },
  };
}
export type ManualTimers = ReturnType<typeof manualTimers>;
