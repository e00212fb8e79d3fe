import { backoffDelay, createSseParser, type SseMessage } from './sse-parser';
import type { ConnectionState } from './types';

export interface EventStreamOptions {
  url: string;
  /** The Authorization header: `Session <secret>`. */
  authorization: string;
  fetch: typeof fetch;
  onMessage: (message: SseMessage) => void;
  onState: (state: ConnectionState) => void;
  /** The server refused the session; the stream stops for good. */
  onUnauthorized: () => void;
  random?: () => number;
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    }, { once: true });
  });

/** Keeps a GET /app/events stream open, reconnecting with backoff; returns a function that stops it. */
export function openEventStream(options: EventStreamOptions): () => void {
  const controller = new AbortController();
  const { signal } = controller;
  let retryFloorMs = 0;

  const run = async () => {
    let attempt = 0;
    while (!signal.aborted) {
      options.onState(attempt === 0 ? 'connecting' : 'reconnecting');
      try {
        const response = await options.fetch(options.url, {
          headers: { Authorization: options.authorization, Accept: 'text/event-stream' },
          cache: 'no-store',
          signal,
        });
        if (response.status === 401 || response.status === 403) {
          options.onUnauthorized();
          return;
        }
        if (!response.ok || !response.body) throw new Error(`events: HTTP ${response.status}`);
        attempt = 0;
        options.onState('connected');
        const parser = createSseParser(options.onMessage, (ms) => (retryFloorMs = ms));
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          parser.push(value);
        }
      } catch {
        // A refused connection or a dropped stream: both end in the same reconnect below.
      }
      if (signal.aborted) return;
      attempt += 1;
      options.onState('reconnecting');
      await sleep(Math.max(retryFloorMs, backoffDelay(attempt - 1, options.random)), signal);
    }
  };
  void run();
  return () => controller.abort();
}
