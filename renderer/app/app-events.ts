import { useOrdersStore } from '../stores/orders-store';
import { useProvidersStore } from '../stores/providers-store';
import type { AppEvent } from '../transport/types';

let ordersTimer: ReturnType<typeof setTimeout> | undefined;

/** Coalesces a burst of order events (a status refresh touches many orders) into one reload. */
function refreshOrdersSoon(): void {
  clearTimeout(ordersTimer);
  ordersTimer = setTimeout(() => {
    if (useOrdersStore.getState().status !== 'idle') void useOrdersStore.getState().load();
  }, 400);
}

/**
 * Reacts to the core's push events by name prefix: `orders.*` / `order.*` reload the list,
 * `providers.*` the service list. Unknown events are ignored.
 */
export function routeAppEvent(event: AppEvent): void {
  if (event.type.startsWith('order')) refreshOrdersSoon();
  else if (event.type.startsWith('provider')) void useProvidersStore.getState().load(true);
}

/** Events may have been missed while the stream was down. */
export function refreshAfterReconnect(): void {
  refreshOrdersSoon();
}
