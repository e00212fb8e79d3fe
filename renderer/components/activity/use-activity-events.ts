import { useEffect } from 'react';
import { useAttentionStore } from '../../stores/attention-store';
import { useOutboxStore } from '../../stores/outbox-store';
import { useRefreshStore } from '../../stores/refresh-store';
import { useStuckOrdersStore } from '../../stores/stuck-orders-store';
import { usePushEvent } from '../use-push-event';
import { showOrdersNotice } from './order-notices';

let ordersTimer: ReturnType<typeof setTimeout> | undefined;

/** Order changes come in bursts (a refresh, an import): the counts reload once the burst is over. */
function reloadCountsSoon(): void {
  clearTimeout(ordersTimer);
  ordersTimer = setTimeout(() => {
    void useOutboxStore.getState().load();
    void useStuckOrdersStore.getState().load();
    void useAttentionStore.getState().load();
  }, 300);
}

/**
 * Loads the header's background state once and keeps it live from the core's push events:
 * refresh.progress, orders.notice, outbox.state, orders.changed, settings.changed.
 */
export function useActivityEvents(): void {
  useEffect(() => {
    void useRefreshStore.getState().loadLast();
    void useOutboxStore.getState().load();
    void useStuckOrdersStore.getState().load();
    void useAttentionStore.getState().load();
  }, []);

  usePushEvent(['refresh.progress', 'orders.notice', 'outbox.state', 'orders.changed', 'settings.changed', 'reconnected'], (event) => {
    switch (event.type) {
      case 'refresh.progress':
        useRefreshStore.getState().progressed(Number(event.done), Number(event.total));
        break;
      case 'orders.notice':
        showOrdersNotice(event);
        break;
      case 'outbox.state':
        void useOutboxStore.getState().load();
        break;
      case 'orders.changed':
        reloadCountsSoon();
        break;
      default: // settings (interval, stuck threshold) changed, or events may have been missed
        void useRefreshStore.getState().loadLast();
        reloadCountsSoon();
    }
  });
}
