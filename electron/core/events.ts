/**
 * Push events from the core. An event with a companyId goes only to that company's listeners.
 * Known types: `orders.changed` { orderIds }, `outbox.state` { pending, waitingForConnection }.
 */
export interface AppEvent {
  type: string;
  companyId?: number;
  [key: string]: unknown;
}

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
