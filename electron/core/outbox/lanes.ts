import type { Clock } from '../clock';
import { DEFAULT_PARALLEL_CALLS } from '../providers/carrier-kind';
import { ProviderUnavailableError } from '../providers/provider';
import { createBreaker, type Breaker, type BreakerOptions } from './breaker';
import type { ServicePair } from '../store/orders/orders-store';

/** Which service (and account) an order's calls go to, and how many of them may be out at once. */
export interface ServiceLimit {
  /** Orders with the same lane share the limit and the breaker: a connection's id, or the service's key. */
  lane: string;
  parallelCalls?: number | null;
}

/** Tells the outbox the lane of an order's service; services without a connection get one of their own. */
export type LaneOf = (providerKey: string, providerConnectId: number | null) => ServiceLimit | undefined;

/** How a call ended, as a lane keeps count of it. */
export type CallOutcome = 'answered' | 'failed' | 'rate-limited';

/** One service's share of the outbox: its calls out, its limit, its breaker, and a pause a 429 asked for. */
export interface Lane {
  readonly key: string;
  limit: number;
  inFlight: number;
  breaker: Breaker;
  /** No new call before this (the service answered 429 with Retry-After). */
  pausedUntil: number;
  /** Order service/connection pairs seen in this lane, so a full lane's jobs can be left out of a claim. */
  pairs: Map<string, ServicePair>;
}

/** Sorts an exception from a call: 429 is the service asking us to slow down, not a sign it is dead. */
export function outcomeOf(error: unknown): CallOutcome {
  if (error instanceof ProviderUnavailableError && error.httpStatus === 429) return 'rate-limited';
  return 'failed';
}

/** The lanes of the services the outbox has called, made on first use. */
export function createLanes(clock: Clock, laneOf: LaneOf | undefined, breaker: BreakerOptions = {}) {
  const lanes = new Map<string, Lane>();
  const byPair = new Map<string, Lane>();

  function of(providerKey: string, providerConnectId: number | null): Lane {
    const pairKey = `${providerKey}\u0000${providerConnectId ?? ''}`;
    const service = laneOf?.(providerKey, providerConnectId);
    const key = service?.lane ?? `service:${providerKey}`;
    let lane = lanes.get(key);
    if (!lane) {
      lane = { key, limit: DEFAULT_PARALLEL_CALLS, inFlight: 0, breaker: createBreaker(clock, breaker), pausedUntil: 0, pairs: new Map() };
      lanes.set(key, lane);
    }
    // Read on every claim: a connection's setting changed in Settings applies to the next calls.
    lane.limit = service?.parallelCalls ?? DEFAULT_PARALLEL_CALLS;
    lane.pairs.set(pairKey, { providerKey, providerConnectId });
    byPair.set(pairKey, lane);
    return lane;
  }

  /** How many more calls the lane may start now. */
  function room(lane: Lane): number {
    if (lane.pausedUntil > clock.now()) return 0;
    if (!lane.breaker.admits(lane.inFlight)) return 0;
    return lane.breaker.state() === 'closed' ? Math.max(0, lane.limit - lane.inFlight) : 1;
  }

  return {
    of,
    room,
    /** The service/connection pairs of lanes that can start nothing now: a claim leaves their jobs alone. */
    blockedPairs() {
      return [...lanes.values()].filter((lane) => room(lane) === 0).flatMap((lane) => [...lane.pairs.values()]);
    },
    all: () => [...lanes.values()],
  };
}

export type Lanes = ReturnType<typeof createLanes>;
