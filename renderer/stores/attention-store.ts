import { create } from 'zustand';
import type { CommandOutput } from '../../shared/contract';
import { getTransport } from '../transport/current';
import { useToastStore } from './toast-store';

type AttentionSummary = CommandOutput<'orders.attention'>;

interface AttentionState {
  /** undefined until first counted. */
  total: number | undefined;
  byReason: AttentionSummary['byReason'];
  /** Counts again; when the count grew since the last time (an import, a refresh, a refusal), says so. */
  load: () => Promise<void>;
}

let seq = 0;

/** Orders that need attention: the header's red badge, and a notification when new ones appear. */
export const useAttentionStore = create<AttentionState>((set, get) => ({
  total: undefined,
  byReason: [],
  load: async () => {
    const mine = ++seq;
    const answer = await getTransport().invoke('orders.attention', {});
    if (!answer.ok || mine !== seq) return;
    const before = get().total;
    set({ total: answer.value.total, byReason: answer.value.byReason });
    const added = before === undefined ? 0 : answer.value.total - before;
    if (added > 0) {
      useToastStore.getState().push({ tone: 'error', title: (t) => t('attention.toast', { count: added }), message: (t) => t('attention.toastHint') }, 12_000);
    }
  },
}));
