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
  /** The window's session secret (the owner's link, a packer's sign-in); null before signing in. */
  session: string | null;
  /** Called once when the server refuses the session (HTTP 401 / 040101): it ended or was revoked. */
  onUnauthorized: () => void;
  /** The window switched sessions (signed in, accepted a link, signed out): remember it for the next visit. */
  onSessionChanged?: (secret: string | null) => void;
  fetch?: typeof fetch;
  /** How long a command may take before the window gives up on it. */
  timeoutMs?: number;
  /** Tests pass false to skip the event stream. */
  events?: boolean;
}

/** `Authorization: Session <secret>`: a session, never an interface token. */
const authorizationOf = (secret: string) => `Session ${secret}`;

/** Browser mode: POST /app/commands/<name> for commands and an SSE stream from GET /app/events for events. */
export function createHttpTransport(options: HttpTransportOptions): Transport {
  const fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
  const timeoutMs = options.timeoutMs ?? 60_000;
  const events = createListeners<AppEvent>();
  const states = createListeners<ConnectionState>();
  let state: ConnectionState = 'connecting';
  let session = options.session;
  let refused = false;

  /** A refusal of `usedSession`: one of a session already replaced is expected and ignored. */
  const refuse = (usedSession: string | null) => {
    if (refused || usedSession === null || usedSession !== session) return;
    refused = true;
    options.onUnauthorized();
  };

  const openEvents = (secret: string | null) =>
    options.events === false || secret === null
      ? () => {}
      : openEventStream({
          url: new URL('/app/events', options.baseUrl).toString(),
          authorization: authorizationOf(secret),
          fetch: fetchImpl,
          onUnauthorized: () => refuse(secret),
          onState: (next) => {
            state = next;
            states.emit(next);
          },
          onMessage: (message) => {
            const event = toAppEvent(message.event, parseEventData(message.data));
            if (event) events.emit(event);
          },
        });
  let stopEvents = openEvents(session);

  async function invoke<N extends CommandName>(name: N, input: CommandInput<N>): Promise<Result<CommandOutput<N>>> {
    const url = new URL(`/app/commands/${encodeURIComponent(name)}`, options.baseUrl).toString();
    const usedSession = session;
    const headers: Record<string, string> = { 'Content-Type': 'application/json', Accept: 'application/json' };
    if (usedSession !== null) headers.Authorization = authorizationOf(usedSession);
    let response: Response;
    try {
      response = await fetchImpl(url, {
        method: 'POST',
        headers,
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
    const code = result && !result.ok ? result.error.code : bare?.code;
    // A wrong password is the sign-in form's business, not a lost session.
    if (name !== 'auth.signIn' && (response.status === 401 || code === ErrorCode.unauthorized)) refuse(usedSession);
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
    useSession(secret) {
      if (secret === session) return;
      session = secret;
      refused = false;
      stopEvents();
      stopEvents = openEvents(secret);
      options.onSessionChanged?.(secret);
    },
  };
}

const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));
