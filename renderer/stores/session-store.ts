import { create } from 'zustand';
import type { ConnectionState } from '../transport/types';

/** Whether this window may talk to the core: IPC always may; browser mode needs the token from the link. */
export type Access = 'starting' | 'ready' | 'needs-token' | 'token-rejected';

interface SessionState {
  access: Access;
  transportKind: 'ipc' | 'http' | undefined;
  connection: ConnectionState;
  setAccess: (access: Access, transportKind?: 'ipc' | 'http') => void;
  setConnection: (connection: ConnectionState) => void;
}

export const useSessionStore = create<SessionState>((set) => ({
  access: 'starting',
  transportKind: undefined,
  connection: 'connecting',
  setAccess: (access, transportKind) => set((s) => ({ access, transportKind: transportKind ?? s.transportKind })),
  setConnection: (connection) => set({ connection }),
}));
