import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * A place among the calls a caller may have out at one service (the outbox's "parallel calls" of a
 * connection). An adapter that waits between two calls of one job (CDEK checking a new order before
 * its number can be read) holds no call during the wait, so it gives the place back meanwhile.
 */
export interface CallSlot {
  /** Gives the place back: no call of this job is out. */
  release(): void;
  /** Takes a place again before the next call; resolves once there is one. */
  reacquire(): Promise<void>;
}

const slots = new AsyncLocalStorage<CallSlot>();

/** Runs an adapter's work holding `slot`: its waits between calls (waitBetweenCalls) give the place back. */
export function withCallSlot<T>(slot: CallSlot, work: () => Promise<T>): Promise<T> {
  return slots.run(slot, work);
}

/** Waits for `wait` between two calls to a service, holding none of the caller's places meanwhile. */
export async function betweenCalls<T>(wait: () => Promise<T>): Promise<T> {
  const slot = slots.getStore();
  slot?.release();
  try {
    return await wait();
  } finally {
    await slot?.reacquire();
  }
}

/** Waits `ms` between two calls to a service (an adapter polling for its answer), holding none of the caller's places meanwhile. */
export const waitBetweenCalls = (ms: number): Promise<void> => betweenCalls(() => new Promise<void>((resolve) => setTimeout(resolve, ms)));
