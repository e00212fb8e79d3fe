import { create } from 'zustand';
import type { ErrorBody } from '../../shared/errors';
import type { SenderProfile } from '../../shared/schemas/settings';
import { getTransport } from '../transport/current';

interface SenderProfilesState {
  profiles: SenderProfile[];
  status: 'idle' | 'loading' | 'ready' | 'error';
  /** Loads once; `force` reloads (after a profile was saved). */
  load: (force?: boolean) => Promise<void>;
  defaultProfile: () => SenderProfile | undefined;
  /** Saves a sender block as a new profile; the core checks it with the order's address rules. */
  create: (name: string, sender: Record<string, unknown>) => Promise<{ ok: true; profile: SenderProfile } | { ok: false; error: ErrorBody }>;
}

let loading: Promise<void> | undefined;

/** Saved sender profiles, for the order form's sender picker (settings edit them). */
export const useSenderProfilesStore = create<SenderProfilesState>((set, get) => ({
  profiles: [],
  status: 'idle',
  load: (force = false) => {
    if (loading) return loading;
    if (get().status === 'ready' && !force) return Promise.resolve();
    set({ status: 'loading' });
    loading = getTransport()
      .invoke('senderProfiles.list', {})
      .then((result) => set(result.ok ? { profiles: result.value, status: 'ready' } : { status: 'error' }))
      .finally(() => {
        loading = undefined;
      });
    return loading;
  },
  defaultProfile: () => get().profiles.find((p) => p.isDefault) ?? get().profiles[0],
  create: async (name, sender) => {
    const result = await getTransport().invoke('senderProfiles.create', { name, sender: sender as never });
    if (!result.ok) return result;
    await get().load(true);
    return { ok: true, profile: result.value };
  },
}));
