import { create } from 'zustand';
import type { LanSettings, LanState } from '../../shared/contract/lan';
import type { ErrorBody } from '../../shared/errors';
import { getTransport } from '../transport/current';

type Outcome = { ok: true; value: LanState } | { ok: false; error: ErrorBody };

interface LanStoreState {
  status: 'idle' | 'loading' | 'ready' | 'error';
  error: ErrorBody | undefined;
  state: LanState | undefined;
  load: () => Promise<void>;
  /** Stores the setting; the core applies it at once and answers what listens now. */
  save: (settings: LanSettings) => Promise<Outcome>;
}

/** Settings → Access from other computers: the owner's LAN setting and what listens now. */
export const useLanStore = create<LanStoreState>((set) => ({
  status: 'idle',
  error: undefined,
  state: undefined,

  load: async () => {
    set({ status: 'loading', error: undefined });
    const result = await getTransport().invoke('lan.get', {});
    set(result.ok ? { status: 'ready', state: result.value } : { status: 'error', error: result.error });
  },

  save: async (settings) => {
    const result = await getTransport().invoke('lan.set', settings);
    if (result.ok) set({ state: result.value, status: 'ready' });
    return result;
  },
}));
