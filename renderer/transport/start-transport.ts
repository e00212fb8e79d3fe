import { createHttpTransport } from './http-transport';
import { createIpcTransport, findBridge } from './ipc-transport';
import { forgetToken, rememberToken, takeToken } from './token';
import type { Transport } from './types';

export type TransportStart =
  | { status: 'ready'; transport: Transport }
  /** Browser mode without a token: the user must open the link printed by `npm start`. */
  | { status: 'needs-token' };

/** Picks IPC when the Electron preload is present, otherwise the HTTP transport with the token from the link. */
export function startTransport(onUnauthorized: () => void): TransportStart {
  const bridge = findBridge();
  if (bridge) return { status: 'ready', transport: createIpcTransport(bridge) };

  const storage = safeLocalStorage();
  const token = takeToken({ location: window.location, history: window.history, storage });
  if (!token) return { status: 'needs-token' };
  return {
    status: 'ready',
    transport: createHttpTransport({
      baseUrl: window.location.origin,
      token,
      onUnauthorized: () => {
        forgetToken(storage);
        onUnauthorized();
      },
      onTokenChanged: (next) => rememberToken(storage, next),
    }),
  };
}

function safeLocalStorage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}
