import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { Readable } from 'node:stream';
import type { Logger } from '../logger';
import { logServiceCall } from '../logging/service-call';
import { bareHost, isLocalLiteral, publicOnlyLookup, type ResolveAll } from '../net/public-lookup';
import { FileProblem } from './file-check';

export type FetchLike = (
  input: string,
  init?: { signal?: AbortSignal; redirect?: 'follow' | 'manual'; /** how the socket resolves the host; absent: as the system does */ lookup?: LookupFunction },
) => Promise<Response>;

/** Redirects a `file.url` download follows, each to an address checked as the first one was. */
export const MAX_DOWNLOAD_REDIRECTS = 3;

/** A refusal whose message may be shown as it is: it tells what the link is, never what answered there. */
class DownloadRefused extends Error {}

const notPublic = () => new DownloadRefused('file.url must point to a public internet address (local and private networks are allowed only in the settings)');
const unresolved = () => new DownloadRefused('the host name of file.url could not be resolved');

/**
 * One GET over node:http(s), answered as a fetch Response (redirects not followed). Unlike the global fetch
 * it takes a socket `lookup`, which is where the address of a `file.url` is checked.
 */
export const nodeGet: FetchLike = (input, init) =>
  new Promise<Response>((resolve, reject) => {
    const target = new URL(input);
    const send = target.protocol === 'https:' ? https.get : http.get;
    const req = send(target, { signal: init?.signal, ...(init?.lookup ? { lookup: init.lookup } : {}) }, (res) => {
      const headers = new Headers();
      for (const [name, value] of Object.entries(res.headers)) {
        if (value !== undefined) for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
      }
      const status = res.statusCode ?? 502;
      const empty = status === 204 || status === 304 || (status >= 300 && status < 400);
      if (empty) res.resume();
      resolve(new Response(empty ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>), { status, headers }));
    });
    req.on('error', reject);
  });

/**
 * The fetch `file.url` goes through: http(s) only, every address the host resolves to public (unless the owner
 * allowed local addresses in the settings), redirects followed by hand up to MAX_DOWNLOAD_REDIRECTS with each
 * target checked again. The check is the socket's own lookup, so the address checked is the one connected to.
 * `allowLocal` is asked at each download, so the setting applies at once. Each GET sent (each hop) is logged on `log`
 * as a service call: address without credentials or secret query values, status, time to the answer.
 */
export function guardedFetch(options: { fetch?: FetchLike; allowLocal: () => Promise<boolean>; resolve?: ResolveAll; log?: Logger }): FetchLike {
  const send = options.fetch ?? nodeGet;
  const lookup = publicOnlyLookup({ resolve: options.resolve, refusal: notPublic, unresolved });

  function check(target: URL, allowLocal: boolean) {
    if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new DownloadRefused('file.url must be an http:// or https:// link');
    if (!allowLocal && isLocalLiteral(bareHost(target))) throw notPublic();
  }

  return async (input, init) => {
    const allowLocal = await options.allowLocal();
    let target = new URL(input);
    for (let hop = 0; ; hop++) {
      check(target, allowLocal);
      let res: Response;
      const started = performance.now();
      const logCall = (outcome: { status: number } | { error: unknown }) =>
        options.log && logServiceCall(options.log, { method: 'GET', url: target, durationMs: performance.now() - started, ...outcome });
      try {
        res = await send(target.href, { signal: init?.signal, redirect: 'manual', ...(allowLocal ? {} : { lookup }) });
      } catch (error) {
        // the lookup's refusal comes back as the request's error (or as its cause)
        const refusal = error instanceof DownloadRefused ? error : (error as Error)?.cause;
        logCall({ error: refusal instanceof DownloadRefused ? refusal : error });
        throw refusal instanceof DownloadRefused ? refusal : error;
      }
      logCall({ status: res.status });
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
      throw new FileProblem('too-large', `The file at file.url is ${Math.round(declared / 1024 / 1024)} MB; the largest workbook accepted is ${limitText}.`, 'import.problem.tooLarge');
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
          throw new FileProblem('too-large', `The file at file.url is larger than ${limitText}, the largest workbook accepted.`, 'import.problem.tooLarge');
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
