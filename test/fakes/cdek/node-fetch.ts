import { Agent, request } from 'node:http';

/**
 * A minimal fetch over node:http with a keep-alive agent, for the long fault test only: on a busy two-core
 * machine undici's fetch costs about 1.8 ms a call here against 0.5 ms, and the test makes thousands.
 * It honours what the CDEK client uses: method, headers, a string body and an AbortSignal.
 * The adapter tests keep the platform fetch, so the real one is covered too. `maxSockets` (default 16) caps
 * the connections open at once: a caller making more calls at once than that must raise it, or they queue here.
 */
export function createNodeHttpFetch(options: { maxSockets?: number } = {}) {
  const agent = new Agent({ keepAlive: true, maxSockets: options.maxSockets ?? 16 });
  const fetchLike = (input: string, init: RequestInit): Promise<Response> =>
    new Promise((resolve, reject) => {
      const signal = init.signal;
      if (signal?.aborted) return reject(new DOMException('aborted', 'AbortError'));
      const req = request(input, { method: init.method ?? 'GET', headers: init.headers as Record<string, string>, agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const headers = new Headers();
          for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') headers.set(k, v);
          resolve(new Response(Buffer.concat(chunks), { status: res.statusCode ?? 500, headers }));
        });
        res.on('error', reject);
      });
      const abort = () => {
        req.destroy();
        reject(new DOMException('aborted', 'AbortError'));
      };
      signal?.addEventListener('abort', abort, { once: true });
      req.on('error', (error) => reject(error));
      req.on('close', () => signal?.removeEventListener('abort', abort));
      if (typeof init.body === 'string') req.write(init.body);
      req.end();
    });
  return { fetch: fetchLike, close: () => agent.destroy() };
}
