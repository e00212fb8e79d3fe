/** Where browser mode keeps the window's session secret between reloads. */
export const sessionStorageKey = 'shipdesk.session';

/** Fragment parameters that carry a secret and must leave the address bar: ours, and the old `#token=` links. */
const secretParams = ['session', 'token'];

/** The session secret of a `#session=<secret>` link (other fragment parameters are ignored). */
export function secretFromHash(hash: string): string | undefined {
  const fragment = hash.startsWith('#') ? hash.slice(1) : hash;
  if (!fragment) return undefined;
  const secret = new URLSearchParams(fragment).get('session')?.trim();
  return secret ? secret : undefined;
}

/** The fragment without any secret, so the address bar (and the history) no longer shows one. */
export function hashWithoutSecrets(hash: string): string {
  const params = new URLSearchParams(hash.startsWith('#') ? hash.slice(1) : hash);
  for (const name of secretParams) params.delete(name);
  const rest = params.toString();
  return rest ? `#${rest}` : '';
}

type SessionStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | undefined;

export interface LinkEnvironment {
  location: Pick<Location, 'hash' | 'pathname' | 'search'>;
  history: Pick<History, 'replaceState' | 'state'>;
  storage: SessionStorage;
}

/**
 * The session the window keeps, and the one a link brings (wiped from the address bar). A link never
 * replaces a kept session by itself: when both exist and differ it is only `offered`, and the UI asks.
 * With nothing kept, the link's session is kept at once (the owner opening the printed link).
 */
export function readSessionLink(env: LinkEnvironment): { kept?: string; offered?: string } {
  const { hash } = env.location;
  const fromLink = secretFromHash(hash);
  if (secretParams.some((name) => new URLSearchParams(hash.slice(1)).has(name))) {
    env.history.replaceState(env.history.state, '', `${env.location.pathname}${env.location.search}${hashWithoutSecrets(hash)}`);
  }
  const kept = read(env.storage);
  if (fromLink && !kept) {
    rememberSession(env.storage, fromLink);
    return { kept: fromLink };
  }
  return fromLink && fromLink !== kept ? { kept, offered: fromLink } : { kept };
}

function read(storage: SessionStorage): string | undefined {
  try {
    return storage?.getItem(sessionStorageKey) ?? undefined;
  } catch {
    return undefined;
  }
}

/** Keeps the session the window switched to (signed in, or accepted a link). */
export function rememberSession(storage: SessionStorage, secret: string): void {
  try {
    storage?.setItem(sessionStorageKey, secret);
  } catch {
    // Without storage the session lives in memory until the page is closed.
  }
}

/** Forgets a session that ended (signed out, refused by the server). */
export function forgetSession(storage: SessionStorage): void {
  try {
    storage?.removeItem(sessionStorageKey);
  } catch {
    // Nothing to forget.
  }
}
