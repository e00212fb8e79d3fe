import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/** The same policy the Electron window enforces. */
export const contentSecurityPolicy =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; font-src 'self' data:; frame-ancestors 'none'";

/** A file of the web UI under root, or undefined when the path leaves root. */
export function resolveInside(root: string, urlPath: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  if (decoded.includes('\0')) return undefined;
  // The root without its trailing separator: browser mode's default root is a URL path ending in '/'.
  const base = normalize(root).replace(/[\\/]+$/, '') || sep;
  const full = normalize(join(base, decoded));
  return full === base || full.startsWith(base === sep ? sep : base + sep) ? full : undefined;
}

/** Serves a built UI file; unknown paths without an extension get index.html (client-side pages). */
export async function serveStatic(root: string, urlPath: string, res: ServerResponse): Promise<boolean> {
  let file = resolveInside(root, urlPath === '/' ? '/index.html' : urlPath);
  if (!file) return false;
  let info = await stat(file).catch(() => undefined);
  if (!info?.isFile() && !extname(file)) {
    file = join(root, 'index.html');
    info = await stat(file).catch(() => undefined);
  }
  if (!info?.isFile()) return false;
  const type = contentTypes[extname(file)] ?? 'application/octet-stream';
  res.writeHead(200, {
    'Content-Type': type,
    'Content-Length': info.size,
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': file.includes(`${sep}assets${sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
    ...(type.startsWith('text/html') ? { 'Content-Security-Policy': contentSecurityPolicy, 'X-Frame-Options': 'DENY' } : {}),
  });
  createReadStream(file).pipe(res);
  return true;
}
