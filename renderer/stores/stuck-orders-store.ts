import { create } from 'zustand';
import type { z } from 'zod';
import type { stuckOrderSchema } from '../../shared/contract/bulk';
import { getTransport } from '../transport/current';

export type StuckOrder = z.output<typeof stuckOrderSchema>;

interface StuckOrdersState {
  total: number;
  thresholdDays: number | undefined;
  /** The first of them, most stuck first as the core lists them. */
  rows: StuckOrder[];
  load: () => Promise<void>;
}

const shown = 50;
let seq = 0;

/** Orders whose status has not moved for the stuck threshold (settings): a count in the header and a list. */
export const useStuckOrdersStore = create<StuckOrdersState>((set) => ({
  total: 0,
  thresholdDays: undefined,
  rows: [],
  load: async () => {
    const mine = ++seq;
    const answer = await getTransport().invoke('orders.stuck', { limit: shown, offset: 0 });
    if (answer.ok && mine === seq) set({ total: answer.value.total, thresholdDays: answer.value.thresholdDays, rows: answer.value.rows });
  },
}));
