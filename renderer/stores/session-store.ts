import { create } from 'zustand';
import type { ErrorBody } from '../../shared/errors';
import type { Identity } from '../../shared/roles';
import { getTransport } from '../transport/current';
import type { ConnectionState } from '../transport/types';

/**
 * Whether this window may talk to the core: IPC always may (the owner); browser mode needs a session,
 * from the owner's link or a packer's sign-in. `session-ended`: it was signed out elsewhere, revoked or expired.
 */
export type Access = 'starting' | 'ready' | 'needs-sign-in' | 'session-ended';

type Outcome = { ok: true } | { ok: false; error: ErrorBody };

interface SessionState {
  access: Access;
  transportKind: 'ipc' | 'http' | undefined;
  connection: ConnectionState;
  /** Who the window is signed in as (the header shows it; pages hide what the role may not use). */
  identity: Identity | undefined;
  /** A link brought another session than the one in use: it is not used unless the user agrees. */
  offeredSession: string | undefined;
  setAccess: (access: Access, transportKind?: 'ipc' | 'http') => void;
  setConnection: (connection: ConnectionState) => void;
  setOfferedSession: (secret: string | undefined) => void;
  /** Asks the core who this window is. */
  loadIdentity: () => Promise<void>;
  signIn: (name: string, password: string) => Promise<Outcome>;
  signOut: () => Promise<void>;
  /** The user chose the link's session over the one in use. */
  acceptOfferedSession: () => void;
}

/**
 * A new session starts from a clean page: nothing the previous person had on screen (orders, drafts,
 * an open form) stays in memory. The transport has already kept the new secret for the reload.
 */
const startOver = () => window.location.reload();

export const useSessionStore = create<SessionState>((set, get) => ({
  access: 'starting',
  transportKind: undefined,
  connection: 'connecting',
  identity: undefined,
  offeredSession: undefined,
  setAccess: (access, transportKind) => set((s) => ({ access, transportKind: transportKind ?? s.transportKind })),
  setConnection: (connection) => set({ connection }),
  setOfferedSession: (offeredSession) => set({ offeredSession }),

  loadIdentity: async () => {
    const result = await getTransport().invoke('session.current', {});
    if (result.ok) set({ identity: result.value });
  },

  signIn: async (name, password) => {
    const result = await getTransport().invoke('auth.signIn', { name, password });
    if (!result.ok) return result;
    getTransport().useSession?.(result.value.session.secret);
    set({ identity: result.value.identity });
    startOver();
    return { ok: true };
  },

  signOut: async () => {
    // Signed out on the server first, so the secret stops working even if it was copied; then forgotten here.
    await getTransport().invoke('auth.signOut', {});
    getTransport().useSession?.(null);
    set({ identity: undefined });
    startOver();
  },

  acceptOfferedSession: () => {
    const offered = get().offeredSession;
    if (!offered) return;
    getTransport().useSession?.(offered);
    set({ offeredSession: undefined });
    startOver();
  },
}));
