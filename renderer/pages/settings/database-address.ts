/**
 * A PostgreSQL address typed in Settings → Database, its password kept apart so that the page never shows it:
 * `splitPassword` takes a pasted `postgres://user:password@host/db` apart, `withPassword` puts it back for the core.
 */
const withUserInfo = /^(postgres(?:ql)?:\/\/)([^/?#]*)@(.*)$/is;

/** The address without its password, and the password (decoded), when the text names one. */
export function splitPassword(text: string): { address: string; password: string | null } {
  const m = withUserInfo.exec(text);
  if (!m) return { address: text, password: null };
  const [, scheme, userInfo, rest] = m;
  const colon = userInfo.indexOf(':');
  if (colon < 0) return { address: text, password: null };
  const encoded = userInfo.slice(colon + 1);
  let password = encoded;
  try {
    password = decodeURIComponent(encoded);
  } catch {
    // a bare % in it: the password as typed
  }
  return { address: `${scheme}${userInfo.slice(0, colon)}@${rest}`, password };
}

/** The address with the password in it (encoded), as the core takes it; an empty password leaves it as it is. */
export function withPassword(address: string, password: string): string {
  if (!password) return address;
  const scheme = /^postgres(?:ql)?:\/\//i.exec(address)?.[0];
  if (!scheme) return address;
  const rest = address.slice(scheme.length);
  const m = /^([^/?#@]*)@/.exec(rest);
  const user = m ? m[1] : '';
  const host = m ? rest.slice(m[0].length) : rest;
  return `${scheme}${user}:${encodeURIComponent(password)}@${host}`;
}
