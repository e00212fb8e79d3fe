import { create } from 'zustand';
import type { z } from 'zod';
import type { outboxViewSchema } from '../../shared/contract/bulk';
import { getTransport } from '../transport/current';

export type OutboxView = z.output<typeof outboxViewSchema>;

interface OutboxState {
  /** outbox.state: the company's orders still on their way to their services. */
  view: OutboxView | undefined;
  load: () => Promise<void>;
}

// Answers can cross when events come in bursts; only the latest request may write.
let seq = 0;

/** The queue of orders waiting to reach their delivery services, for "waiting for connection". */
export const useOutboxStore = create<OutboxState>((set) => ({
  view: undefined,
  load: async () => {
    const mine = ++seq;
    const answer = await getTransport().invoke('outbox.state', {});
    if (answer.ok && mine === seq) set({ view: answer.value });
  },
}));
