import { describe, expect, it, vi } from 'vitest';
import { ErrorCode } from '../../shared/errors';
import { ClientErrorCode } from './client-errors';
import { openEventStream } from './event-stream';
import { createHttpTransport } from './http-transport';
import type { ConnectionState } from './types';

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

function transportWith(fetchImpl: (url: string, init: RequestInit) => Promise<Response>) {
  const onUnauthorized = vi.fn();
  const fetchMock = vi.fn(fetchImpl);
  const transport = createHttpTransport({
    baseUrl: 'http://127.0.0.1:4318',
    token: 'tok',
    onUnauthorized,
    fetch: fetchMock as unknown as typeof fetch,
    events: false,
  });
  return { transport, fetchMock, onUnauthorized };
}

describe('HTTP transport', () => {
  it('posts the input to /app/commands/<name> with the token and returns the Result', async () => {
    const page = { rows: [], total: 0 };
    const { transport, fetchMock } = transportWith(async () => json({ ok: true, value: page }));
    const result = await transport.invoke('orders.list', { search: 'Анна', limit: 100, offset: 0 });
    expect(result).toEqual({ ok: true, value: page });
    const [url, init] = fetchMock.mock.calls[0];
    expect(url).toBe('http://127.0.0.1:4318/app/commands/orders.list');
    expect(init.method).toBe('POST');
    expect(init.headers).toMatchObject({ Authorization: 'tok', 'Content-Type': 'application/json' });
    expect(JSON.parse(init.body as string)).toEqual({ search: 'Анна', limit: 100, offset: 0 });
  });

  it('passes the core’s refusal through, field errors included', async () => {
    const error = { code: ErrorCode.validation, message: 'Validation error', errors: [{ field: 'recipient.phone', message: 'must be a phone number' }] };
    const { transport } = transportWith(async () => json({ ok: false, error }, 400));
    expect(await transport.invoke('providers.list', {})).toEqual({ ok: false, error });
  });

  it('turns an unreachable server into “no connection”', async () => {
    const { transport } = transportWith(async () => {
      throw new TypeError('Failed to fetch');
    });
    const result = await transport.invoke('providers.list', {});
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe(ClientErrorCode.offline);
      // No description, so the UI shows its own advice rather than "Failed to fetch".
      expect(result.error.description).toBeUndefined();
    }
  });

  it('reports a refused token once, whatever the body looks like', async () => {
    const { transport, onUnauthorized } = transportWith(async () => json({ code: ErrorCode.unauthorized, message: 'Unauthorized' }, 401));
    const first = await transport.invoke('providers.list', {});
    await transport.invoke('providers.list', {});
    expect(first).toEqual({ ok: false, error: { code: ErrorCode.unauthorized, message: 'Unauthorized' } });
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it('does not mistake an HTML error page for an answer', async () => {
    const { transport } = transportWith(async () => new Response('<h1>Bad gateway</h1>', { status: 502 }));
    const result = await transport.invoke('providers.list', {});
    expect(!result.ok && result.error.code).toBe(ClientErrorCode.badResponse);
  });
});

function streamOf(text: string) {
  return new Response(new Blob([text]).stream(), { status: 200, headers: { 'Content-Type': 'text/event-stream' } });
}

describe('event stream', () => {
  it('delivers events, reconnects after the stream drops, and stops for good on a refused token', async () => {
    const responses = [streamOf(': connected\n\ndata: {"type":"orders.changed"}\n\n'), new Response('', { status: 401 })];
    const fetchMock = vi.fn(async () => responses.shift()!);
    const messages: string[] = [];
    const states: ConnectionState[] = [];
    const unauthorized = new Promise<void>((resolve) =>
      openEventStream({
        url: 'http://127.0.0.1:4318/app/events',
        token: 'tok',
        fetch: fetchMock as unknown as typeof fetch,
        onMessage: (m) => messages.push(m.data),
        onState: (s) => states.push(s),
        onUnauthorized: resolve,
        random: () => 0,
      }),
    );
    await unauthorized;
    expect(messages).toEqual(['{"type":"orders.changed"}']);
    expect(states).toEqual(['connecting', 'connected', 'reconnecting', 'reconnecting']);
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect((fetchMock.mock.calls[0] as unknown as [string, RequestInit])[1].headers).toMatchObject({ Authorization: 'tok' });
  });
});

describe('renewing the token from the settings', () => {
  /** A server that knows one token at a time; `regenerate` swaps it, as settings.regenerateToken does. */
  function tokenServer() {
    let current = 'tok';
    const unauthorized = () => json({ ok: false, error: { code: ErrorCode.unauthorized, message: 'Unauthorized' } }, 401);
    return {
      regenerate: () => (current = 'tok-2'),
      fetch: async (_url: string, init: RequestInit) =>
        (init.headers as Record<string, string>).Authorization === current ? json({ ok: true, value: [] }) : unauthorized(),
    };
  }

  it('switches to the new token, remembers it, and keeps working', async () => {
    const server = tokenServer();
    const onTokenChanged = vi.fn();
    const onUnauthorized = vi.fn();
    const transport = createHttpTransport({ baseUrl: 'http://127.0.0.1:4318', token: 'tok', onUnauthorized, onTokenChanged, fetch: server.fetch as unknown as typeof fetch, events: false });
    await transport.renewToken!(async () => server.regenerate());
    expect(onTokenChanged).toHaveBeenCalledWith('tok-2');
    expect(await transport.invoke('providers.list', {})).toEqual({ ok: true, value: [] });
    expect(onUnauthorized).not.toHaveBeenCalled();
  });

  it('a call refused with the old token while the token changes does not end the session', async () => {
    const server = tokenServer();
    const onUnauthorized = vi.fn();
    const transport = createHttpTransport({ baseUrl: 'http://127.0.0.1:4318', token: 'tok', onUnauthorized, fetch: server.fetch as unknown as typeof fetch, events: false });
    let stale: unknown;
    await transport.renewToken!(async () => {
      const token = server.regenerate();
      stale = await transport.invoke('providers.list', {}); // sent with the old token after the server changed it
      return token;
    });
    expect(stale).toMatchObject({ ok: false, error: { code: ErrorCode.unauthorized } });
    expect(onUnauthorized).not.toHaveBeenCalled();
    expect(await transport.invoke('providers.list', {})).toEqual({ ok: true, value: [] });
  });

  it('when the change fails after the old token was refused, the session ends as it would have', async () => {
    const onUnauthorized = vi.fn();
    const refusing = async () => json({ ok: false, error: { code: ErrorCode.unauthorized, message: 'Unauthorized' } }, 401);
    const transport = createHttpTransport({ baseUrl: 'http://127.0.0.1:4318', token: 'tok', onUnauthorized, fetch: refusing as unknown as typeof fetch, events: false });
    await transport.renewToken!(async () => {
      await transport.invoke('providers.list', {});
      return undefined;
    });
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });
});
