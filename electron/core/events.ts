import { z } from 'zod';
import { appEventSchema, type AppEvent } from '../../shared/contract/events';

/** Push events from the core, typed in the contract; each names its company and reaches only its callers. */
export type { AppEvent };

export type EventListener = (event: AppEvent) => void;

export interface EventBus {
  publish(event: AppEvent): void;
  subscribe(listener: EventListener): () => void;
}

export function createEventBus(onListenerError: (error: unknown) => void = () => {}): EventBus {
  const listeners = new Set<EventListener>();
  return {
    publish(event) {
      for (const listener of listeners) {
        try {
          listener(event);
        } catch (error) {
          onListenerError(error); // one broken subscriber must not stop the others
        }
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** Subscribes to the events of one company only: what a window signed in to it may see. */
export function subscribeCompany(bus: EventBus, companyId: number, listener: EventListener): () => void {
  return bus.subscribe((event) => {
    if (event.companyId === companyId) listener(event);
  });
}

/** Where the events of other instances on the same database come from (the instances store's broadcasts). */
export interface Broadcasts {
  broadcast(message: string): Promise<void>;
  listen(listener: (message: string) => void): Promise<() => Promise<void>>;
}

/**
 * The events a window or a webhook of another instance must hear: something of the company changed in the database
 * (the receiver reads it again from the store). Progress and queue states are each instance's own.
 */
const relayedTypes = new Set<AppEvent['type']>(['orders.changed', 'drafts.changed', 'courier.changed', 'settings.changed', 'session.ended']);

/** Order ids per broadcast: a bulk change goes in parts, each well within a broadcast's size. */
const IDS_PER_BROADCAST = 200;

const relayedSchema = z.object({ from: z.string(), event: appEventSchema });

/**
 * Several instances on one database: the relayed events published here are broadcast to the others (small: the
 * event itself, its company, kind and order ids), and theirs are published here. An event from elsewhere is
 * checked against the contract's schema and never sent on again. Resolves with the way to stop; a failure to listen
 * is told to onError, not thrown (the app runs on).
 */
export async function relayAcrossInstances(bus: EventBus, broadcasts: Broadcasts, instanceId: string, onError: (error: unknown) => void): Promise<() => Promise<void>> {
  const received = new WeakSet<AppEvent>();
  const send = (event: AppEvent) => broadcasts.broadcast(JSON.stringify({ from: instanceId, event })).catch(onError);
  const unsubscribe = bus.subscribe((event) => {
    if (received.has(event) || !relayedTypes.has(event.type)) return;
    if (event.type !== 'orders.changed') return void send(event);
    for (let i = 0; i < event.orderIds.length; i += IDS_PER_BROADCAST) void send({ ...event, orderIds: event.orderIds.slice(i, i + IDS_PER_BROADCAST) });
  });
  let stopListening = async () => {};
  try {
    stopListening = await broadcasts.listen((message) => {
      let parsed;
      try {
        parsed = relayedSchema.safeParse(JSON.parse(message));
      } catch (error) {
        return onError(error);
      }
      if (!parsed.success) return onError(new Error(`A broadcast that is no event of ours was left: ${message.slice(0, 200)}`));
      if (parsed.data.from === instanceId || !relayedTypes.has(parsed.data.event.type)) return;
      received.add(parsed.data.event);
      bus.publish(parsed.data.event);
    });
  } catch (error) {
    onError(error); // this instance's windows miss the others' changes until they read again; the others still hear of its own
  }
  return async () => {
    unsubscribe();
    await stopListening();
  };
}
