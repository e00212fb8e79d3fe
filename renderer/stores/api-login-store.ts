import { create } from 'zustand';
import type { ApiLoginSettings } from '../../shared/contract/api-login';
import type { Result } from '../../shared/result';
import { getTransport } from '../transport/current';

interface ApiLoginState {
  /** The company's API login; null when none is set, undefined until read. */
  login: string | null | undefined;
  load: () => Promise<void>;
  set: (input: ApiLoginSettings) => Promise<Result<{ login: string | null }>>;
  clear: () => Promise<Result<{ login: string | null }>>;
}

/** Settings → Local API: the login and password an existing integration trades for the token (POST /login). */
export const useApiLoginStore = create<ApiLoginState>((set) => {
  const keep = (result: Result<{ login: string | null }>) => {
    if (result.ok) set({ login: result.value.login });
    return result;
  };
  return {
    login: undefined,
    load: async () => {
      keep(await getTransport().invoke('apiLogin.get', {}));
    },
    set: async (input) => keep(await getTransport().invoke('apiLogin.set', input)),
    clear: async () => keep(await getTransport().invoke('apiLogin.clear', {})),
  };
});
