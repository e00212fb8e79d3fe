import { create } from 'zustand';
import type { ErrorBody } from '../../../shared/errors';
import type { OrderView } from '../../../shared/schemas/order-detail';
import type { AppStatusHistory } from '../../../shared/schemas/statuses';
import { getTransport } from '../../transport/current';

export type OrderAction = 'cancel' | 'delete';

interface OrderViewState {
  orderId: string | undefined;
  view: OrderView | undefined;
  history: AppStatusHistory | undefined;
  /** 'loading' only on the first load of an order; later reloads keep what is shown. */
  status: 'idle' | 'loading' | 'ready' | 'error';
  error: ErrorBody | undefined;
  /** The action under way, so its button shows a spinner and the others wait. */
  busy: OrderAction | undefined;
  /** Why the last action was refused. */
  actionError: ErrorBody | undefined;
  /** Shows another order (or none); a reload of the same order keeps the current screen. */
  show: (orderId: string | undefined) => Promise<void>;
  reload: () => Promise<void>;
  /** Runs cancel or delete; answers whether the core did it. */
  act: (action: OrderAction) => Promise<boolean>;
}

// A slow answer for an order the user has since left must not overwrite the one now shown.
let seq = 0;

/** The order shown in the detail drawer: orders.get and its status history, and its actions. */
export const useOrderViewStore = create<OrderViewState>((set, get) => {
  async function fetchOrder(orderId: string, first: boolean) {
    const mine = ++seq;
    if (first) set({ orderId, view: undefined, history: undefined, status: 'loading', error: undefined, actionError: undefined, busy: undefined });
    const transport = getTransport();
    const [view, history] = await Promise.all([
      transport.invoke('orders.get', { orderId }),
      transport.invoke('statuses.history', { orderId, limit: 100 }),
    ]);
    if (mine !== seq) return;
    if (!view.ok) {
      set({ status: 'error', error: view.error });
      return;
    }
    // No statuses yet (040018) is an empty timeline, not a failure of the screen.
    set({ status: 'ready', error: undefined, view: view.value, history: history.ok ? history.value : undefined });
  }

  return {
    orderId: undefined,
    view: undefined,
    history: undefined,
    status: 'idle',
    error: undefined,
    busy: undefined,
    actionError: undefined,

    show: async (orderId) => {
      if (orderId === undefined) {
        seq++;
        set({ orderId: undefined, view: undefined, history: undefined, status: 'idle', error: undefined, actionError: undefined, busy: undefined });
        return;
      }
      await fetchOrder(orderId, orderId !== get().orderId || get().status !== 'ready');
    },

    reload: async () => {
      const { orderId } = get();
      if (orderId !== undefined) await fetchOrder(orderId, get().status !== 'ready');
    },

    act: async (action) => {
      const { orderId, busy } = get();
      if (orderId === undefined || busy) return false;
      set({ busy: action, actionError: undefined });
      const result = await getTransport().invoke(action === 'cancel' ? 'orders.cancel' : 'orders.delete', { orderId });
      if (get().orderId !== orderId) return result.ok;
      set({ busy: undefined, actionError: result.ok ? undefined : result.error });
      if (result.ok && action === 'cancel') await get().reload();
      return result.ok;
    },
  };
});
