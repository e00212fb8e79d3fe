import { z } from 'zod';
import { appEventSchema, type AppEvent } from '../../shared/contract/events';
import { BROADCAST_LIMIT } from './store/instances/instances-store';

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
 * (the receiver reads it again from the store), and what the windows follow of work that runs in one instance for all
 * of them (the outbox's queue and the orders whose jobs came back, a status refresh's progress and its notices, an
 * import's progress).
 */
const relayedTypes = new Set<AppEvent['type']>([
  'orders.changed', 'drafts.changed', 'courier.changed', 'settings.changed', 'session.ended',
  'outbox.state', 'refresh.progress', 'orders.notice', 'import.progress',
]);

/** What one item of a broadcast may take: the instances store's limit, less room for the envelope (`from`, `items`). */
const BROADCAST_BYTES = BROADCAST_LIMIT - 100;

/**
 * What an instance keeps in memory of the database beyond a store's own reads, read again when another instance
 * writes it: the points and the tariffs (the reference store's caches) and the connections (the service accounts it calls with).
 */
export const keptDataKinds = ['points', 'tariffs', 'connections'] as const;
export type KeptData = (typeof keptDataKinds)[number];

/** One thing told to the other instances: an event, or that kept data was written here (they read it again). */
type Relayed = { event: AppEvent } | { changed: KeptData };

const relayedItem = z.union([z.object({ event: appEventSchema }), z.object({ changed: z.enum(keptDataKinds) })]);
/** A broadcast: what one instance told in one turn of its event loop, in the order it happened. */
const relayedSchema = z.object({ from: z.string(), items: z.array(relayedItem).min(1) });

/** The events that name orders. */
type NamingOrders = Extract<AppEvent, { type: 'orders.changed' | 'outbox.state' | 'orders.notice' }>;
const namesOrders = (event: AppEvent): event is NamingOrders => event.type === 'orders.changed' || event.type === 'outbox.state' || event.type === 'orders.notice';

/** The event's order ids from `start` to `end` (a notice's client numbers beside them). */
function slice(event: NamingOrders, start: number, end: number): NamingOrders {
  if (event.type === 'orders.notice') return { ...event, orderIds: event.orderIds.slice(start, end), clientNumbers: event.clientNumbers.slice(start, end) };
  return { ...event, orderIds: (event.orderIds ?? []).slice(start, end) };
}

/** The item as JSON within the size of a broadcast: an event naming many orders (a bulk change, a refresh's notices) in halves until each fits. */
function inParts(item: Relayed): string[] {
  const text = JSON.stringify(item);
  if (!('event' in item)) return [text];
  const { event } = item;
  const count = namesOrders(event) ? (event.orderIds?.length ?? 0) : 0;
  if (Buffer.byteLength(text) <= BROADCAST_BYTES || !namesOrders(event) || count < 2) return [text];
  const half = Math.ceil(count / 2);
  return [...inParts({ event: slice(event, 0, half) }), ...inParts({ event: slice(event, half, count) })];
}

/**
 * The items as few broadcasts as their size allows, in their order: one NOTIFY (a round trip on the pool) for all
 * that one turn of the event loop published, not one each.
 */
export function packBroadcasts(items: Relayed[], instanceId: string): string[] {
  const open = `{"from":${JSON.stringify(instanceId)},"items":[`;
  const messages: string[] = [];
  let parts: string[] = [];
  let bytes = Buffer.byteLength(open) + 2;
  for (const part of items.flatMap(inParts)) {
    const size = Buffer.byteLength(part) + 1;
    if (parts.length > 0 && bytes + size > BROADCAST_LIMIT) {
      messages.push(`${open}${parts.join(',')}]}`);
      parts = [];
      bytes = Buffer.byteLength(open) + 2;
    }
    parts.push(part);
    bytes += size;
  }
  if (parts.length > 0) messages.push(`${open}${parts.join(',')}]}`);
  return messages;
}

/** One kind of kept data: this instance's own writes of it (told to the others), and how it reads it again after theirs. */
export interface KeptDataNotices {
  onWritten(listener: () => void): () => void;
  changedElsewhere(): void | Promise<void>;
}

/**
 * Several instances on one database: the relayed events published here are broadcast to the others (small: the
 * event itself, its company, kind and order ids, in parts when many), and theirs are published here; so are writes of
 * what an instance keeps in memory (`kept`: points, connections). What one turn of the event loop publishes goes out
 * together (one NOTIFY, or several when larger than one may carry), one broadcast after another, so the others hear it
 * in the order it happened here. An event from elsewhere is checked against the contract's schema and never sent on again.
 * Resolves with the way to stop (it sends what is still waiting first); a failure to listen is told to onError, not
 * thrown (the app runs on).
 */
export async function relayAcrossInstances(
  bus: EventBus, broadcasts: Broadcasts, instanceId: string, onError: (error: unknown) => void, kept: Partial<Record<KeptData, KeptDataNotices>> = {},
): Promise<() => Promise<void>> {
  const received = new WeakSet<AppEvent>();
  let waiting: Relayed[] = [];
  let sent = Promise.resolve();
  const flush = () => {
    const messages = packBroadcasts(waiting, instanceId);
    waiting = [];
    sent = sent.then(async () => {
      for (const message of messages) await broadcasts.broadcast(message).catch(onError);
    });
  };
  const send = (item: Relayed) => {
    if (waiting.length === 0) setImmediate(flush);
    waiting.push(item);
  };
  const unsubscribe = bus.subscribe((event) => {
    if (received.has(event) || !relayedTypes.has(event.type)) return;
    send({ event });
  });
  const stopKept = keptDataKinds.map((changed) => kept[changed]?.onWritten(() => send({ changed })));
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
      if (parsed.data.from === instanceId) return;
      for (const item of parsed.data.items) {
        if ('changed' in item) void Promise.resolve(kept[item.changed]?.changedElsewhere()).catch(onError);
        else if (relayedTypes.has(item.event.type)) {
          received.add(item.event);
          bus.publish(item.event);
        }
      }
    });
  } catch (error) {
    onError(error); // this instance's windows miss the others' changes until they read again; the others still hear of its own
  }
  return async () => {
    unsubscribe();
    for (const stop of stopKept) stop?.();
    if (waiting.length > 0) flush(); // the setImmediate then finds nothing waiting
    await sent;
    await stopListening();
  };
}
