import path from 'node:path';
import { ErrorCode } from '../shared/errors';
import type { Result } from '../shared/result';

// The pure decisions of the Electron shell, kept free of `electron` so they are tested in plain Node.

/** Our custom scheme: the renderer is served as app://shipdesk/… instead of file://. */
export const APP_SCHEME = 'app';
export const APP_HOST = 'shipdesk';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const START_URL = `${APP_ORIGIN}/index.html`;

/** Policy for every page we serve: only our own scripts, no remote code, no outbound connections. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'", // Mantine injects <style> tags at runtime
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self' data:",
].join('; ');

/**
 * Privileges of the app:// scheme. `standard` + `secure` give the page a real origin (storage, fetch,
 * relative URLs) without file:// powers; no bypassCSP, so our policy always applies.
 */
export const APP_SCHEME_PRIVILEGES = {
  standard: true,
  secure: true,
  supportFetchAPI: true,
  codeCache: true,
} as const;

/** webPreferences of every ShipDesk window: the renderer gets no Node, no webviews, and runs sandboxed. */
export function secureWebPreferences(preloadPath: string) {
  return {
    preload: preloadPath,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    experimentalFeatures: false,
  } as const;
}

function parse(raw: unknown): URL | null {
  if (typeof raw !== 'string') return null;
  try {
    return new URL(raw);
  } catch {
    return null;
  }
}

/** True only for URLs inside our app (app://shipdesk/…). Compares parsed parts, never string prefixes. */
export function isAppUrl(raw: unknown): boolean {
  const url = parse(raw);
  // `origin` is "null" for non-special schemes in WHATWG URL, so protocol and host are checked instead.
  return url !== null && url.protocol === `${APP_SCHEME}:` && url.host === APP_HOST;
}

/** The normalised https URL to hand to the system browser, or null for anything else (file:, javascript:, smb:…). */
export function externalHttpsUrl(raw: unknown): string | null {
  const url = parse(raw);
  if (!url || url.protocol !== 'https:' || url.hostname === '') return null;
  return url.href;
}

/**
 * Why an IPC command is refused before it reaches the core, or null when it may go through.
 * The sender's frame must be a page of ours: a frame that navigated elsewhere, or an injected
 * iframe, must not be able to drive the shop's data.
 */
export function refuseCommand(senderFrameUrl: string | null | undefined, name: unknown): Result<never> | null {
  if (!isAppUrl(senderFrameUrl)) return { ok: false, error: { code: ErrorCode.unauthorized, message: 'Unauthorized' } };
  if (typeof name !== 'string' || name === '') {
    return {
      ok: false,
      error: {
        code: ErrorCode.validation,
        message: 'Validation error',
        errors: [{ field: 'name', message: 'The command name must be a non-empty string' }],
      },
    };
  }
  return null;
}

/** What the renderer sees when the core throws instead of returning a Result: no stack crosses IPC. */
export const INTERNAL_ERROR: Result<never> = {
  ok: false,
  error: { code: ErrorCode.internal, message: 'Internal error' },
};

/** Answer to a command that arrives while ShipDesk is quitting and the database is being closed. */
export const CLOSING_ERROR: Result<never> = {
  ok: false,
  error: { code: ErrorCode.internal, message: 'ShipDesk is closing' },
};

export type AppFileResolution = { ok: true; file: string } | { ok: false; status: 403 };

/**
 * Maps an app://shipdesk/… request to a file inside `root` (the built renderer). Anything that would
 * escape `root` (encoded `..`, backslashes, absolute paths, NUL) is refused; extensionless paths fall
 * back to index.html so client-side routes survive a reload.
 */
export function resolveAppFile(root: string, requestUrl: string): AppFileResolution {
  const url = parse(requestUrl);
  if (!url || url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST) return { ok: false, status: 403 };
  let relative: string;
  try {
    relative = decodeURIComponent(url.pathname);
  } catch {
    return { ok: false, status: 403 }; // malformed %-escapes
  }
  if (relative.includes('\0')) return { ok: false, status: 403 };
  // Splitting on both separators makes a decoded "..\\" as dangerous on Linux as it is on Windows.
  let segments = relative.split(/[\\/]+/).filter((s) => s !== '');
  // ':' would be a drive letter or an NTFS alternate data stream on Windows; our build never has one.
  if (segments.some((s) => s === '..' || s.includes(':'))) return { ok: false, status: 403 };
  if (segments.length === 0 || path.posix.extname(segments[segments.length - 1]!) === '') segments = ['index.html'];

  const base = path.resolve(root);
  const file = path.resolve(base, ...segments);
  if (file !== base && !file.startsWith(base + path.sep)) return { ok: false, status: 403 };
  return { ok: true, file };
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/** Content type by extension; we set it ourselves so a sniffed type can never turn data into script. */
export function contentTypeFor(file: string): string {
  return CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
}

/** Headers for every response we serve: our CSP, no MIME sniffing. */
export function securityHeaders(file: string): Record<string, string> {
  return {
    'Content-Type': contentTypeFor(file),
    'Content-Security-Policy': CONTENT_SECURITY_POLICY,
    'X-Content-Type-Options': 'nosniff',
  };
}

/** Response headers with any existing CSP replaced by ours (header names are case-insensitive). */
export function withCsp(headers: Record<string, string | string[]> | undefined): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (name.toLowerCase() !== 'content-security-policy') out[name] = value;
  }
  out['Content-Security-Policy'] = [CONTENT_SECURITY_POLICY];
  return out;
}
