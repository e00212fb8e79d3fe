/** Where browser mode keeps the access token between reloads. */
export const tokenStorageKey = 'shipdesk.token';

/** The token from a `#token=<token>` fragment (other fragment parameters are ignored). */
export function tokenFromHash(hash: string): string | undefined {
  const fragment = hash.startsWith('#') ? hash.slice(1) : hash;
  if (!fragment) return undefined;
  const token = new URLSearchParams(fragment).get('token')?.trim();
  return token ? token : undefined;
}

/** The fragment without its token, so the address bar no longer shows the key. */
export function hashWithoutToken(hash: string): string {
  const params = new URLSearchParams(hash.startsWith('#') ? hash.slice(1) : hash);
  params.delete('token');
  const rest = params.toString();
  return rest ? `#${rest}` : '';
}

export interface TokenEnvironment {
  location: Pick<Location, 'hash' | 'pathname' | 'search'>;
  history: Pick<History, 'replaceState' | 'state'>;
  storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | undefined;
}

/**
 * Takes the token from the link the server printed, remembers it and wipes it from the address bar;
 * without a link, falls back to the remembered token.
 */
export function takeToken(env: TokenEnvironment): string | undefined {
  const fromLink = tokenFromHash(env.location.hash);
  if (fromLink) {
    try {
      env.storage?.setItem(tokenStorageKey, fromLink);
    } catch {
      // Without storage the token lives in memory until the page is closed.
    }
    env.history.replaceState(env.history.state, '', `${env.location.pathname}${env.location.search}${hashWithoutToken(env.location.hash)}`);
    return fromLink;
  }
  try {
    return env.storage?.getItem(tokenStorageKey) ?? undefined;
  } catch {
    return undefined;
  }
}

/** Forgets a token the server refused. */
export function forgetToken(storage: TokenEnvironment['storage']): void {
  try {
    storage?.removeItem(tokenStorageKey);
  } catch {
    // Nothing to forget.
  }
}

/** Remembers a token the window switched to (the settings renewed it). */
export function rememberToken(storage: TokenEnvironment['storage'], token: string): void {
  try {
    storage?.setItem(tokenStorageKey, token);
  } catch {
    // Without storage the new token lives in memory until the page is closed.
  }
}
