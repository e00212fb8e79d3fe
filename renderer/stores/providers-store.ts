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
  /**
   * Keys shown on screen (the orders list's services): one the list does not name yet was connected since it
   * loaded (in the settings of another window, through the core), so the list is asked again, once per new key.
   */
  ensureKnown: (keys: readonly string[]) => void;
}

/** Keys already asked about: one the core does not name either (a connection since deleted) is not asked again. */
const askedAbout = new Set<string>();

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
  ensureKnown: (keys) => {
    const { providers, status } = get();
    if (status !== 'ready') return;
    const unknown = keys.filter((key) => !askedAbout.has(key) && !providers.some((p) => p.key === key));
    if (unknown.length === 0) return;
    for (const key of unknown) askedAbout.add(key);
    void get().load(true);
  },
}));

/** Display name of a provider key; the key itself until the list has loaded. */
export function providerName(providers: readonly ProviderInfo[], key: string): string {
  return providers.find((p) => p.key === key)?.name ?? key;
}
