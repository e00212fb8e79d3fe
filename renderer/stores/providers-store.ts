import { create } from 'zustand';
import type { ProviderInfo } from '../../shared/contract/providers';
import type { ErrorBody } from '../../shared/errors';
import { getTransport } from '../transport/current';

type LoadStatus = 'idle' | 'loading' | 'ready' | 'error';

interface ProvidersState {
  providers: ProviderInfo[];
  status: LoadStatus;
  error: ErrorBody | undefined;
  /** Loads once; `force` reloads (e.g. after settings change). */
  load: (force?: boolean) => Promise<void>;
}

/** Delivery services of the company, for names in the table and the service picker. */
export const useProvidersStore = create<ProvidersState>((set, get) => ({
  providers: [],
  status: 'idle',
  error: undefined,
  load: async (force = false) => {
    const { status } = get();
    if (status === 'loading' || (status === 'ready' && !force)) return;
    set({ status: 'loading', error: undefined });
    const result = await getTransport().invoke('providers.list', {});
    if (result.ok) set({ providers: result.value, status: 'ready' });
    else set({ status: 'error', error: result.error });
  },
}));

/** Display name of a provider key; the key itself until the list has loaded. */
export function providerName(providers: readonly ProviderInfo[], key: string): string {
  return providers.find((p) => p.key === key)?.name ?? key;
}
