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
    session: 'tok',
    onUnauthorized,
    fetch: fetchMock as unknown as typeof fetch,
    events: false,
  });
  return { transport, fetchMock, onUnauthorized };
}

describe('HTTP transport', () => {
  it('posts the input to /app/commands/<name> with the session and returns the Result', async () => {
    const page = { rows: [], total: 0 };
    const { transport, fetchMock } = transportWith(async () => json({ ok: true, value: page }));
    const result = await transport.invoke('orders.list', { search: 'Анна', limit: 100, offset: 0 });
    expect(result).toEqual({ ok: true, value: page });
    const [url, init] = fetchMock.mock.calls[0];
    expect(url).toBe('http://127.0.0.1:4318/app/commands/orders.list');
    expect(init.method).toBe('POST');
    expect(init.headers).toMatchObject({ Authorization: 'Session tok', 'Content-Type': 'application/json' });
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

  it('reports a refused session once, whatever the body looks like', async () => {
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
        authorization: 'Session tok',
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
    expect((fetchMock.mock.calls[0] as unknown as [string, RequestInit])[1].headers).toMatchObject({ Authorization: 'Session tok' });
  });
});

describe('signing in and out', () => {
  /** A server that knows the sessions it issued; signing in issues 'packer-1' for the right password. */
  function sessionServer() {
    const live = new Set(['owner']);
    const refusal = (status: number) => json({ code: ErrorCode.unauthorized, message: 'Unauthorized' }, status);
    return {
      live,
      fetch: async (url: string, init: RequestInit) => {
        const auth = (init.headers as Record<string, string>).Authorization;
        if (url.endsWith('/auth.signIn')) {
          const { password } = JSON.parse(init.body as string);
          if (password !== 'right-password') return refusal(401);
          live.add('packer-1');
          return json({ ok: true, value: { session: { secret: 'packer-1', expiresAt: 1 } } });
        }
        return auth && live.has(auth.replace(/^Session /, '')) ? json({ ok: true, value: auth }) : refusal(401);
      },
    };
  }

  it('a window without a session sends none, and a wrong password is not a lost session', async () => {
    const server = sessionServer();
    const onUnauthorized = vi.fn();
    const transport = createHttpTransport({ baseUrl: 'http://127.0.0.1:4318', session: null, onUnauthorized, fetch: server.fetch as unknown as typeof fetch, events: false });
    const wrong = await transport.invoke('auth.signIn', { name: 'Анна', password: 'wrong' });
    expect(wrong).toMatchObject({ ok: false, error: { code: ErrorCode.unauthorized } });
    expect(await transport.invoke('providers.list', {})).toMatchObject({ ok: false });
    expect(onUnauthorized).not.toHaveBeenCalled();
  });

  it('after signing in every call carries the new session, and the window remembers it', async () => {
    const server = sessionServer();
    const onSessionChanged = vi.fn();
    const transport = createHttpTransport({ baseUrl: 'http://127.0.0.1:4318', session: null, onUnauthorized: vi.fn(), onSessionChanged, fetch: server.fetch as unknown as typeof fetch, events: false });
    const signedIn = await transport.invoke('auth.signIn', { name: 'Анна', password: 'right-password' });
    if (!signedIn.ok) throw new Error('sign-in failed');
    transport.useSession!(signedIn.value.session.secret);
    expect(onSessionChanged).toHaveBeenCalledWith('packer-1');
    expect(await transport.invoke('providers.list', {})).toEqual({ ok: true, value: 'Session packer-1' });
  });

  it('a revoked session ends once; a refusal of a session already replaced does not end the new one', async () => {
    const server = sessionServer();
    const onUnauthorized = vi.fn();
    const transport = createHttpTransport({ baseUrl: 'http://127.0.0.1:4318', session: 'owner', onUnauthorized, fetch: server.fetch as unknown as typeof fetch, events: false });
    server.live.delete('owner');
    const stale = transport.invoke('providers.list', {}); // sent with the old session
    transport.useSession!('packer-1');
    server.live.add('packer-1');
    await stale;
    expect(onUnauthorized).not.toHaveBeenCalled();
    server.live.delete('packer-1');
    await transport.invoke('providers.list', {});
    await transport.invoke('providers.list', {});
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });
});
