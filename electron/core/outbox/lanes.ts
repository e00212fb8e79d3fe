import type { Clock } from '../clock';
import { DEFAULT_PARALLEL_CALLS } from '../providers/carrier-kind';
import { ProviderUnavailableError } from '../providers/provider';
import type { CallSlot } from '../providers/between-calls';
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

/**
 * How many of a lane's jobs may be out for each place: a job waiting between its calls (CDEK checking a new
 * order) holds no place, so up to this many times the limit are started, and never more calls than the limit.
 */
export const JOBS_PER_PLACE = 2;

/** One service's share of the outbox: its calls out, its limit, its breaker, and a pause a 429 asked for. */
export interface Lane {
  readonly key: string;
  /** Calls out at once at most (the connection's "parallel calls"). */
  limit: number;
  /** Places taken: jobs calling the service now (a job waiting between its calls gives its place back). */
  inFlight: number;
  /** Jobs out, calling or waiting between calls; at most JOBS_PER_PLACE × limit. */
  jobs: number;
  /** Jobs back from a wait between calls, waiting for a place: served before any new job starts. */
  waiters: (() => void)[];
  breaker: Breaker;
  /** No new call before this (the service answered 429 with Retry-After, or refused the connection's credentials). */
  pausedUntil: number;
  /** The service refused the connection's credentials and has not answered otherwise since: one call at a time tries again. */
  credentialsRefused: boolean;
  /** Order service/connection pairs seen in this lane, so a full lane's jobs can be left out of a claim. */
  pairs: Map<string, ServicePair>;
}

/**
 * A job back from its wait between two calls while its service is paused (it answered another job 429 with a
 * Retry-After, or refused the connection's login): it makes no call now and goes back to the queue until `until`.
 */
export class ServicePausedError extends Error {
  constructor(readonly until: number) {
    super(`the service asked for a pause until ${new Date(until).toISOString()}`);
    this.name = 'ServicePausedError';
  }
}

/** Sorts an exception from a call: 429 is the service asking us to slow down, not a sign it is dead. */
export function outcomeOf(error: unknown): CallOutcome {
  if (error instanceof ProviderUnavailableError && error.httpStatus === 429) return 'rate-limited';
  return 'failed';
}

/** The lanes of the services the outbox has called, made on first use. */
export function createLanes(clock: Clock, laneOf: LaneOf | undefined, breaker: BreakerOptions = {}, onRoom: () => void = () => {}) {
  const lanes = new Map<string, Lane>();
  const byPair = new Map<string, Lane>();

  function of(providerKey: string, providerConnectId: number | null): Lane {
    const pairKey = `${providerKey}\u0000${providerConnectId ?? ''}`;
    const service = laneOf?.(providerKey, providerConnectId);
    const key = service?.lane ?? `service:${providerKey}`;
    let lane = lanes.get(key);
    if (!lane) {
      lane = { key, limit: DEFAULT_PARALLEL_CALLS, inFlight: 0, jobs: 0, waiters: [], breaker: createBreaker(clock, breaker), pausedUntil: 0, credentialsRefused: false, pairs: new Map() };
      lanes.set(key, lane);
    }
    // Read on every claim: a connection's setting changed in Settings applies to the next calls.
    lane.limit = service?.parallelCalls ?? DEFAULT_PARALLEL_CALLS;
    lane.pairs.set(pairKey, { providerKey, providerConnectId });
    byPair.set(pairKey, lane);
    return lane;
  }

  /** How many more jobs the lane may start now: places free (after the jobs waiting for one), within the jobs' bound. */
  function room(lane: Lane): number {
    if (lane.pausedUntil > clock.now()) return 0;
    if (!lane.breaker.admits(lane.jobs)) return 0;
    const places = Math.min(lane.limit - lane.inFlight - lane.waiters.length, JOBS_PER_PLACE * lane.limit - lane.jobs);
    return Math.max(0, lane.breaker.state() === 'closed' && !lane.credentialsRefused ? places : Math.min(places, 1));
  }

  /** A job starts: it takes a place. */
  function startJob(lane: Lane) {
    lane.jobs++;
    lane.inFlight++;
  }

  /** A place is given back: the first job waiting for one takes it, or it is free for a new job. */
  function freePlace(lane: Lane) {
    const next = lane.inFlight <= lane.limit ? lane.waiters.shift() : undefined;
    if (next) return next();
    lane.inFlight--;
    onRoom();
  }

  /** A job ends; `held` says whether it still had its place (see slotOf). */
  function endJob(lane: Lane, held: boolean) {
    lane.jobs--;
    if (held) freePlace(lane);
    else onRoom();
  }

  /**
   * The job's place as its adapter sees it (providers/between-calls.ts): given back during a wait between
   * calls and taken again before the next one. end() makes it inert and says whether the place was held.
   */
  function slotOf(lane: Lane): CallSlot & { end(): boolean } {
    let state: 'held' | 'released' | 'waiting' = 'held';
    let ended = false;
    let pending: (() => void) | null = null;
    return {
      release() {
        if (state !== 'held' || ended) return;
        state = 'released';
        freePlace(lane);
      },
      async reacquire() {
        if (state !== 'released' || ended) return;
        if (lane.pausedUntil > clock.now()) throw new ServicePausedError(lane.pausedUntil);
        if (lane.inFlight < lane.limit && lane.waiters.length === 0) {
          lane.inFlight++;
          state = 'held';
          return;
        }
        state = 'waiting';
        await new Promise<void>((resolve) => {
          pending = () => {
            state = 'held';
            resolve();
          };
          lane.waiters.push(pending);
        });
      },
      end() {
        ended = true;
        // A job gone while waiting for a place never got it: it leaves the line.
        if (state === 'waiting' && pending) lane.waiters.splice(lane.waiters.indexOf(pending), 1);
        return state === 'held';
      },
    };
  }

  return {
    of,
    room,
    startJob,
    endJob,
    slotOf,
    /** The service/connection pairs of lanes that can start nothing now: a claim leaves their jobs alone. */
    blockedPairs() {
      return [...lanes.values()].filter((lane) => room(lane) === 0).flatMap((lane) => [...lane.pairs.values()]);
    },
    all: () => [...lanes.values()],
    /** How many jobs the lanes called so far may start now, together. */
    roomOfAll: () => [...lanes.values()].reduce((sum, lane) => sum + room(lane), 0),
    /** Every lane called so far has jobs out and room for none: only a place freed lets a claim start anything of theirs. */
    allBusy: () => lanes.size > 0 && [...lanes.values()].every((lane) => lane.jobs > 0 && room(lane) === 0),
  };
}

export type Lanes = ReturnType<typeof createLanes>;
