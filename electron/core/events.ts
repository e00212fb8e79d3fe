import type { AppEvent } from '../../shared/contract/events';

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
