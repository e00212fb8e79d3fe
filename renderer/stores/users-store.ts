import { create } from 'zustand';
import type { User } from '../../shared/contract/auth';
import type { ErrorBody } from '../../shared/errors';
import { getTransport } from '../transport/current';

type Outcome<T = undefined> = { ok: true; value: T } | { ok: false; error: ErrorBody };

interface UsersState {
  status: 'idle' | 'loading' | 'ready' | 'error';
  error: ErrorBody | undefined;
  users: User[];
  load: () => Promise<void>;
  create: (name: string, password: string) => Promise<Outcome<User>>;
  setPassword: (userId: number, password: string) => Promise<Outcome<User>>;
  remove: (userId: number) => Promise<Outcome>;
  /** Ends every session of the packer; answers how many ended. */
  revokeSessions: (userId: number) => Promise<Outcome<number>>;
}

/** Settings → Users: the packers the owner adds, their passwords and sessions. The list follows every change. */
export const useUsersStore = create<UsersState>((set, get) => {
  const refresh = async () => {
    const result = await getTransport().invoke('users.list', {});
    if (result.ok) set({ users: result.value, status: 'ready' });
  };
  /** Runs a change and re-reads the list (sessions and last sign-in move with it). */
  const change = async <T>(run: () => Promise<Outcome<T>>): Promise<Outcome<T>> => {
    const result = await run();
    if (result.ok) await refresh();
    return result;
  };

  return {
    status: 'idle',
    error: undefined,
    users: [],
    load: async () => {
      if (get().status === 'loading') return;
      set({ status: 'loading', error: undefined });
      const result = await getTransport().invoke('users.list', {});
      set(result.ok ? { status: 'ready', users: result.value } : { status: 'error', error: result.error });
    },
    create: (name, password) => change(() => getTransport().invoke('users.create', { name, password })),
    setPassword: (userId, password) => change(() => getTransport().invoke('users.setPassword', { userId, password })),
    remove: (userId) =>
      change(async () => {
        const result = await getTransport().invoke('users.remove', { userId });
        return result.ok ? { ok: true, value: undefined } : result;
      }),
    revokeSessions: (userId) =>
      change(async () => {
        const result = await getTransport().invoke('users.revokeSessions', { userId });
        return result.ok ? { ok: true, value: result.value.revoked } : result;
      }),
  };
});
