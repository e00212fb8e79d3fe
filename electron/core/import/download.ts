import { FileProblem } from './file-check';

export type FetchLike = (input: string, init?: { signal?: AbortSignal; redirect?: 'follow' }) => Promise<Response>;

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
      throw new FileProblem('download', `file.url could not be downloaded: the server answered ${res.status}${res.statusText ? ` ${res.statusText}` : ''}`);
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
    const reason = controller.signal.aborted
      ? String((controller.signal.reason as Error)?.message) === 'timeout'
        ? `no complete answer within ${Math.round(options.timeoutMs / 1000)} s`
        : 'the upload was canceled'
      : ((error as Error & { cause?: Error }).cause?.message ?? (error as Error).message);
    throw new FileProblem('download', `file.url could not be downloaded: ${reason}`);
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
  }
}
