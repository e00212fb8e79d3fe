/** One Server-Sent Events message. */
export interface SseMessage {
  event: string;
  data: string;
  id?: string;
}

export interface SseParser {
  /** Feeds decoded text; complete messages are delivered as they end. */
  push(chunk: string): void;
  /** The stream ended: a message without its closing blank line is dropped, as the standard says. */
  reset(): void;
}

/**
 * The text/event-stream format (WHATWG HTML §9.2), for reading SSE with fetch: EventSource cannot
 * send the Authorization header. `retry:` is reported so the reconnect delay can follow the server.
 */
export function createSseParser(onMessage: (message: SseMessage) => void, onRetry?: (ms: number) => void): SseParser {
  let buffer = '';
  let data: string[] = [];
  let event = '';
  let id: string | undefined;

  const dispatch = () => {
    if (data.length > 0) onMessage({ event: event || 'message', data: data.join('\n'), ...(id !== undefined ? { id } : {}) });
    data = [];
    event = '';
  };

  const line = (text: string) => {
    if (text === '') return dispatch();
    if (text.startsWith(':')) return;
    const colon = text.indexOf(':');
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') data.push(value);
    else if (field === 'event') event = value;
    else if (field === 'id' && !value.includes('\0')) id = value;
    else if (field === 'retry' && /^\d+$/.test(value)) onRetry?.(Number(value));
  };

  return {
    push(chunk) {
      buffer += chunk;
      // A trailing CR may be the first half of CRLF; wait for the next chunk to decide.
      const cut = buffer.endsWith('\r') ? buffer.length - 1 : buffer.length;
      const complete = buffer.slice(0, cut);
      const parts = complete.split(/\r\n|\r|\n/);
      const rest = parts.pop() ?? '';
      buffer = rest + buffer.slice(cut);
      for (const part of parts) line(part);
    },
    reset() {
      buffer = '';
      data = [];
      event = '';
    },
  };
}

/** Reconnect delay: doubling from 1 s up to 30 s, with jitter so several windows do not reconnect in step. */
export function backoffDelay(attempt: number, random: () => number = Math.random, baseMs = 1000, maxMs = 30_000): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt));
  return Math.round(ceiling * (0.5 + random() * 0.5));
}
