import { create } from 'zustand';
import type { z } from 'zod';
import type { CommandOutput } from '../../shared/contract';
import type { lastRefreshSchema } from '../../shared/contract/bulk';
import type { StatusRefreshResult } from '../../shared/contract/status-refresh';
import type { ErrorBody } from '../../shared/errors';
import { statusNames } from '../../shared/status-keys';
import { shortTime } from '../components/activity/short-time';
import { errorTitle } from '../i18n/error-messages';
import { useLocaleStore } from '../i18n/locale-store';
import { getTransport } from '../transport/current';
import { toastRefusal, useToastStore } from './toast-store';

export type LastRefresh = z.output<typeof lastRefreshSchema>;
export type NextTestChange = NonNullable<CommandOutput<'statuses.nextTestChange'>['next']>;

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
  /** When a test service's next status change is due (its schedule is fixed), asked after each refresh of this window. */
  nextTestChange: NextTestChange | null;
  loadLast: () => Promise<void>;
  refreshNow: () => Promise<void>;
  /** A refresh.progress event. */
  progressed: (done: number, total: number) => void;
}

/** Status refresh as the window shows it: "refresh now", its progress, the last and the next refresh. */
/** The latest statuses.lastRefresh asked. */
let lastSeq = 0;

/**
 * A test service moves its parcels on a fixed schedule, hours apart: a refresh that found nothing new
 * says when the next change is due, so a new shop does not think the refresh is broken.
 */
async function tellNextTestChange(changed: number | undefined): Promise<void> {
  const answer = await getTransport().invoke('statuses.nextTestChange', {});
  const next = answer.ok ? answer.value.next : null;
  useRefreshStore.setState({ nextTestChange: next });
  if (next && changed === 0) {
    useToastStore.getState().push(
      {
        tone: 'info',
        title: (t) => t('activity.refresh.nothingNew'),
        message: (t) => {
          const language = useLocaleStore.getState().language;
          return t('activity.refresh.nextTestChange', { number: next.clientNumber, status: statusNames[next.statusKey][language], time: shortTime(next.at, language) });
        },
      },
      15_000,
    );
  }
}

export const useRefreshStore = create<RefreshState>((set, get) => ({
  last: undefined,
  progress: undefined,
  requested: false,
  result: undefined,
  error: undefined,
  nextTestChange: null,

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
      toastRefusal(error, { title: (t) => t('activity.refresh.failed'), message: (t) => errorTitle(error, t) });
    }
    await Promise.all([get().loadLast(), tellNextTestChange(answer.ok ? answer.value.changed : undefined)]);
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
