import { createHttpTransport } from './http-transport';
import { createIpcTransport, findBridge } from './ipc-transport';
import { forgetSession, readSessionLink, rememberSession } from './session-link';
import type { Transport } from './types';

export type TransportStart =
  | {
      status: 'ready';
      transport: Transport;
      /**
       * Browser mode: a link brought another session than the one the window keeps. It is not used unless
       * the user agrees (transport.useSession(offeredSession)); if the kept one turns out to have ended,
       * the link's is taken instead.
       */
      offeredSession?: string;
    }
  /** Browser mode without a session: sign in (auth.signIn, then transport.useSession) or open the owner's link. */
  | { status: 'needs-sign-in'; transport: Transport };

/** Picks IPC when the Electron preload is present, otherwise the HTTP transport with the window's session. */
export function startTransport(onUnauthorized: () => void): TransportStart {
  const bridge = findBridge();
  if (bridge) return { status: 'ready', transport: createIpcTransport(bridge) };
  const storage = safeLocalStorage();
  const { kept, offered } = readSessionLink({ location: window.location, history: window.history, storage });
  let fallback = offered;
  const transport = createHttpTransport({
    baseUrl: window.location.origin,
    session: kept ?? null,
    onUnauthorized: () => {
      forgetSession(storage);
      if (fallback) {
        // The kept session had ended: nobody is signed in, so the link's session replaces no one.
        const next = fallback;
        fallback = undefined;
        transport.useSession?.(next);
        return;
      }
      onUnauthorized();
    },
    onSessionChanged: (secret) => (secret ? rememberSession(storage, secret) : forgetSession(storage)),
  });
  if (!kept) return { status: 'needs-sign-in', transport };
  return offered ? { status: 'ready', transport, offeredSession: offered } : { status: 'ready', transport };
}

function safeLocalStorage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}
