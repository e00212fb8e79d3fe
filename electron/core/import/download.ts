import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import { FileProblem } from './file-check';

export type FetchLike = (input: string, init?: { signal?: AbortSignal; redirect?: 'follow' | 'manual' }) => Promise<Response>;

/** Redirects a `file.url` download follows, each to an address checked as the first one was. */
export const MAX_DOWNLOAD_REDIRECTS = 3;

/** Every address a host name resolves to (tests resolve their own names). */
export type ResolveAll = (hostname: string) => Promise<string[]>;

const resolveAll: ResolveAll = async (hostname) => (await lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

/** A refusal whose message may be shown as it is: it tells what the link is, never what answered there. */
class DownloadRefused extends Error {}

/**
 * Whether an address is on the public internet. Loopback, private, link-local, carrier-grade NAT, multicast,
 * unspecified, reserved, and IPv6 forms of those (IPv4-mapped, unique local) are not: a shop's `file.url`
 * must not reach the shop's own network, its router or this very server.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  return parsed.range() === 'unicast';
}

/**
 * The fetch `file.url` goes through: http(s) only, every address the host resolves to public (unless the owner
 * allowed local addresses in the settings), redirects followed by hand up to MAX_DOWNLOAD_REDIRECTS with each
 * target checked again. `allowLocal` is asked at each download, so the setting applies at once.
 */
export function guardedFetch(options: { fetch?: FetchLike; allowLocal: () => Promise<boolean>; resolve?: ResolveAll }): FetchLike {
  const send: FetchLike = options.fetch ?? ((input, init) => fetch(input, init));
  const resolve = options.resolve ?? resolveAll;

  async function check(target: URL, allowLocal: boolean) {
    if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new DownloadRefused('file.url must be an http:// or https:// link');
    if (allowLocal) return;
    const host = target.hostname.replace(/^\[|\]$/g, '');
    let addresses: string[];
    try {
      addresses = ipaddr.isValid(host) ? [host] : await resolve(host);
    } catch {
      throw new DownloadRefused('the host name of file.url could not be resolved');
    }
    if (addresses.length === 0 || !addresses.every(isPublicAddress)) {
      throw new DownloadRefused('file.url must point to a public internet address (local and private networks are allowed only in the settings)');
    }
  }

  return async (input, init) => {
    const allowLocal = await options.allowLocal();
    let target = new URL(input);
    for (let hop = 0; ; hop++) {
      await check(target, allowLocal);
      const res = await send(target.href, { signal: init?.signal, redirect: 'manual' });
      const location = res.status >= 300 && res.status < 400 ? res.headers.get('location') : null;
      if (!location) return res;
      await res.body?.cancel().catch(() => {});
      if (hop >= MAX_DOWNLOAD_REDIRECTS) throw new DownloadRefused(`file.url redirects more than ${MAX_DOWNLOAD_REDIRECTS} times`);
      try {
        target = new URL(location, target);
      } catch {
        throw new DownloadRefused('file.url redirects to an invalid link');
      }
    }
  };
}

export interface DownloadOptions {
  fetch: FetchLike;
  timeoutMs: number;
  maxBytes: number;
  signal?: AbortSignal;
}

/**
 * Downloads `file.url` (http or https only) with a size limit and a timeout; the body is read as it
 * arrives and dropped the moment it passes the limit. Every failure is a FileProblem naming the cause.
 */
export async function downloadFile(url: string, options: DownloadOptions): Promise<{ bytes: Buffer; name?: string }> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new FileProblem('download', `file.url is not a valid link: ${url}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new FileProblem('download', 'file.url must be an http:// or https:// link');

  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error('timeout')), options.timeoutMs);
  const onAbort = () => controller.abort(new Error('canceled'));
  options.signal?.addEventListener('abort', onAbort);
  const limitText = `${Math.round(options.maxBytes / 1024 / 1024)} MB`;
  try {
    const res = await options.fetch(parsed.href, { signal: controller.signal, redirect: 'follow' });
    if (!res.ok) {
      await res.body?.cancel().catch(() => {});
      // The status alone: what a server writes beside it (or in its body) is not ours to pass on.
      throw new FileProblem('download', `file.url could not be downloaded: the server answered HTTP ${res.status}`);
    }
    const declared = Number(res.headers.get('content-length') ?? Number.NaN);
    if (declared > options.maxBytes) {
      await res.body?.cancel().catch(() => {});
      throw new FileProblem('too-large', `The file at file.url is ${Math.round(declared / 1024 / 1024)} MB; the largest workbook accepted is ${limitText}.`);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    if (res.body) {
      const reader = res.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        size += value.byteLength;
        if (size > options.maxBytes) {
          await reader.cancel().catch(() => {});
          throw new FileProblem('too-large', `The file at file.url is larger than ${limitText}, the largest workbook accepted.`);
        }
        chunks.push(Buffer.from(value));
      }
    }
    const disposition = res.headers.get('content-disposition') ?? '';
    let name = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition)?.[1] ?? parsed.pathname.split('/').pop() ?? '';
    try {
      name = decodeURIComponent(name);
    } catch {
      // keep it as it came
    }
    return { bytes: Buffer.concat(chunks, size), name: name || undefined };
  } catch (error) {
    if (error instanceof FileProblem) throw error;
    if (error instanceof DownloadRefused) throw new FileProblem('download', error.message);
    // A network error's own text names addresses and ports ("connect ECONNREFUSED 10.0.0.5:8080"): not repeated.
    const reason = controller.signal.aborted
      ? String((controller.signal.reason as Error)?.message) === 'timeout'
        ? `no complete answer within ${Math.round(options.timeoutMs / 1000)} s`
        : 'the upload was canceled'
      : 'the server could not be reached';
    throw new FileProblem('download', `file.url could not be downloaded: ${reason}`);
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
  }
}
