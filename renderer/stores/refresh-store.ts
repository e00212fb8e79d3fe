import { create } from 'zustand';
import type { z } from 'zod';
import type { lastRefreshSchema } from '../../shared/contract/bulk';
import type { StatusRefreshResult } from '../../shared/contract/status-refresh';
import type { ErrorBody } from '../../shared/errors';
import { errorTitle } from '../i18n/error-messages';
import { getTransport } from '../transport/current';
import { useToastStore } from './toast-store';

export type LastRefresh = z.output<typeof lastRefreshSchema>;

interface RefreshState {
  /** statuses.lastRefresh: when the last refresh ended, its result, when the next is due. */
  last: LastRefresh | undefined;
  /** The refresh under way as its refresh.progress events tell it (scheduled ones included). */
  progress: { done: number; total: number } | undefined;
  /** This window asked for a refresh and waits for its answer. */
  requested: boolean;
  /** What the last "refresh now" of this window did, shown until the next one. */
  result: StatusRefreshResult | undefined;
  error: ErrorBody | undefined;
  loadLast: () => Promise<void>;
  refreshNow: () => Promise<void>;
  /** A refresh.progress event. */
  progressed: (done: number, total: number) => void;
}

/** Status refresh as the window shows it: "refresh now", its progress, the last and the next refresh. */
/** The latest statuses.lastRefresh asked. */
let lastSeq = 0;

export const useRefreshStore = create<RefreshState>((set, get) => ({
  last: undefined,
  progress: undefined,
  requested: false,
  result: undefined,
  error: undefined,

  loadLast: async () => {
    const mine = ++lastSeq;
    const answer = await getTransport().invoke('statuses.lastRefresh', {});
    if (answer.ok && mine === lastSeq) set({ last: answer.value }); // an older answer must not undo a newer one
  },

  refreshNow: async () => {
    if (get().requested) return;
    set({ requested: true, error: undefined, result: undefined });
    const answer = await getTransport().invoke('statuses.refreshNow', {});
    set({ requested: false, progress: undefined, ...(answer.ok ? { result: answer.value } : { error: answer.error }) });
    if (!answer.ok) {
      const { error } = answer;
      useToastStore.getState().push({ tone: 'error', title: (t) => t('activity.refresh.failed'), message: (t) => errorTitle(error, t) });
    }
    await get().loadLast();
  },

  progressed: (done, total) => {
    if (done >= total) {
      // The run is over; the last refresh now names it.
      set({ progress: undefined });
      void get().loadLast();
      return;
    }
    set({ progress: { done, total } });
  },
}));
