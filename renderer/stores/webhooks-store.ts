import { create } from 'zustand';
import type { CommandOutput } from '../../shared/contract';
import { getTransport } from '../transport/current';

type Overview = CommandOutput<'webhooks.overview'>;

interface WebhooksState {
  /** Every company's webhooks; undefined until read. */
  webhooks: Overview | undefined;
  load: () => Promise<void>;
}

/** Settings → Local API: the sites ShipDesk calls on status changes, and how their last calls went. */
export const useWebhooksStore = create<WebhooksState>((set) => ({
  webhooks: undefined,
  load: async () => {
    const result = await getTransport().invoke('webhooks.overview', {});
    if (result.ok) set({ webhooks: result.value });
  },
}));
