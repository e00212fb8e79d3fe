import { create } from 'zustand';
import type { TodayDashboard } from '../../shared/contract/dashboard';
import type { ErrorBody } from '../../shared/errors';
import { getTransport } from '../transport/current';

interface DashboardState {
  figures: TodayDashboard | undefined;
  error: ErrorBody | undefined;
  load: () => Promise<void>;
}

let seq = 0;

/** The "Today" screen's figures, asked again when orders change while it is open. */
export const useDashboardStore = create<DashboardState>((set) => ({
  figures: undefined,
  error: undefined,
  load: async () => {
    const mine = ++seq;
    const answer = await getTransport().invoke('dashboard.today', {});
    if (mine !== seq) return;
    if (answer.ok) set({ figures: answer.value, error: undefined });
    else set({ error: answer.error });
  },
}));
