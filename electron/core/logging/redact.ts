/**
 * Keeps secrets out of log files: a log bundle is mailed to support, so no token, password or key may be in it.
 * Keys are matched by name (any case, `-`/`_` ignored), wherever they sit in the logged object or URL.
 */
const SECRET_KEYS = new Set([
  'authorization', 'proxyauthorization', 'cookie', 'setcookie', 'password', 'passwd', 'secret', 'clientsecret',
  'token', 'accesstoken', 'refreshtoken', 'apitoken', 'idtoken', 'apikey', 'xapikey', 'securepassword',
]);

export const REDACTED = '[redacted]';

/** Deeper objects are cut off: a log line never walks a hostile 100,000-deep value. */
const MAX_DEPTH = 8;

export function isSecretKey(key: string): boolean {
  return SECRET_KEYS.has(key.toLowerCase().replace(/[-_]/g, ''));
}

/** A copy of `value` with every secret-named field replaced; errors keep their name, message and stack. */
export function redactSecrets(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redactInlineSecrets(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return '[deeper]';
  if (value instanceof Error) return value; // pino's error serializer reads it; messages are ours, see redactUrl for URLs
  if (value instanceof URL) return redactUrl(value);
  if (typeof Headers !== 'undefined' && value instanceof Headers) return redactSecrets(Object.fromEntries(value.entries()), depth);
  if (Array.isArray(value)) return value.map((item) => redactSecrets(item, depth + 1));
  const copy: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) copy[key] = isSecretKey(key) ? REDACTED : redactSecrets(field, depth + 1);
  return copy;
}

/** A URL as it may be logged: no user or password, secret-named query parameters blanked. */
export function redactUrl(url: string | URL): string {
  let parsed: URL;
  try {
    parsed = new URL(String(url));
  } catch {
    return redactInlineSecrets(String(url));
  }
  if (parsed.username || parsed.password) {
    parsed.username = '';
    parsed.password = '';
  }
  for (const key of [...parsed.searchParams.keys()]) if (isSecretKey(key)) parsed.searchParams.set(key, REDACTED);
  return parsed.toString();
}

/** `Bearer abc…` and `client_secret=…` written into a free text (an error message, a body snippet). */
function redactInlineSecrets(text: string): string {
  return text
    .replace(/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi, `$1 ${REDACTED}`)
    .replace(/\b(client_secret|password|access_token|refresh_token|token|api_?key)=([^&\s"']+)/gi, `$1=${REDACTED}`);
}
