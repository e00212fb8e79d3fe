import type { CommandInput, CommandName, CommandOutput } from '../../shared/contract';
import { ErrorCode } from '../../shared/errors';
import type { Result } from '../../shared/result';
import { parseEventData, toAppEvent } from './app-event';
import { asBareError, asResult, ClientErrorCode, clientFailure } from './client-errors';
import { openEventStream } from './event-stream';
import { createListeners } from './listeners';
import type { AppEvent, ConnectionState, Transport } from './types';

export interface HttpTransportOptions {
  /** Origin of the ShipDesk server, e.g. location.origin. */
  baseUrl: string;
  token: string;
  /** Called once when the server refuses the token (HTTP 401 / 040101). */
  onUnauthorized: () => void;
  fetch?: typeof fetch;
  /** How long a command may take before the window gives up on it. */
  timeoutMs?: number;
  /** Tests pass false to skip the event stream. */
  events?: boolean;
  /** The token was renewed from the settings: remember the new one for the next visit. */
  onTokenChanged?: (token: string) => void;
}

/** Browser mode: POST /app/commands/<name> for commands and an SSE stream from GET /app/events for events. */
export function createHttpTransport(options: HttpTransportOptions): Transport {
  const fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
  const timeoutMs = options.timeoutMs ?? 60_000;
  const events = createListeners<AppEvent>();
  const states = createListeners<ConnectionState>();
  let state: ConnectionState = 'connecting';
  let unauthorized = false;
  let token = options.token;
  /** While the token is being renewed, refusals of the old one are held instead of ending the session. */
  let renewing = false;
  let heldRefusal = false;

  /** A refusal of `usedToken`: one of a token already replaced is expected and ignored. */
  const refuse = (usedToken: string) => {
    if (unauthorized || usedToken !== token) return;
    if (renewing) {
      heldRefusal = true;
      return;
    }
    unauthorized = true;
    options.onUnauthorized();
  };

  const openEvents = (streamToken: string) =>
    options.events === false
      ? () => {}
      : openEventStream({
          url: new URL('/app/events', options.baseUrl).toString(),
          token: streamToken,
          fetch: fetchImpl,
          onUnauthorized: () => refuse(streamToken),
          onState: (next) => {
            state = next;
            states.emit(next);
          },
          onMessage: (message) => {
            const event = toAppEvent(message.event, parseEventData(message.data));
            if (event) events.emit(event);
          },
        });
  let stopEvents = openEvents(token);

  async function invoke<N extends CommandName>(name: N, input: CommandInput<N>): Promise<Result<CommandOutput<N>>> {
    const url = new URL(`/app/commands/${encodeURIComponent(name)}`, options.baseUrl).toString();
    const usedToken = token;
    let response: Response;
    try {
      response = await fetchImpl(url, {
        method: 'POST',
        headers: { Authorization: usedToken, 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify(input ?? {}),
        cache: 'no-store',
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      const timedOut = error instanceof DOMException && error.name === 'TimeoutError';
      return timedOut
        ? clientFailure(ClientErrorCode.timeout, `${name}: no answer in ${timeoutMs} ms`)
        : // No description: the UI shows its own advice for this code; the cause stays in the message for logs.
          clientFailure(ClientErrorCode.offline, `${name}: the ShipDesk server is unreachable (${errorText(error)})`);
    }

    let body: unknown;
    try {
      body = await response.json();
    } catch {
      body = undefined;
    }
    const result = asResult<CommandOutput<N>>(body);
    const bare = result ? undefined : asBareError(body);
    if (response.status === 401 || (result && !result.ok && result.error.code === ErrorCode.unauthorized) || bare?.code === ErrorCode.unauthorized) {
      refuse(usedToken);
    }
    if (result) return result;
    if (bare) return { ok: false, error: bare };
    return clientFailure(ClientErrorCode.badResponse, `${name}: HTTP ${response.status} without a Result body`);
  }

  return {
    kind: 'http',
    invoke,
    onEvent: (listener) => events.add(listener),
    onConnectionChange: (listener) => {
      listener(state);
      return states.add(listener);
    },
    dispose: () => stopEvents(),
    async renewToken(change) {
      renewing = true;
      heldRefusal = false;
      let next: string | undefined;
      try {
        next = await change();
      } finally {
        renewing = false;
      }
      if (next && next !== token) {
        token = next;
        stopEvents();
        stopEvents = openEvents(next);
        options.onTokenChanged?.(next);
      } else if (heldRefusal) {
        refuse(token);
      }
    },
  };
}

const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));
