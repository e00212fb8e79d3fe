import { message, refOfSaid, said, type MessageRef } from '../../../../shared/messages';
import { CredentialsRefusedError, ProviderUnavailableError, type Telling } from '../provider';
import { bodyText, createTransport, parseJsonBody, type Query, type TransportOptions } from '../transport';
import { boxberryError, isTokenRefusal } from './mapping';

/** Boxberry's one endpoint (carriers-ru.md); no public test host is known. */
export const BOXBERRY_URL = 'https://api.boxberry.ru/json.php';

/** Boxberry answered and refused (an error inside HTTP 200, or a 4xx). */
export class BoxberryApiError extends Error {
  /** The message as data when it is ours (an HTTP status); Boxberry's own words have none. */
  readonly ref?: MessageRef;

  constructor(message: Telling, readonly httpStatus = 200) {
    super(typeof message === 'string' ? message : message.message);
    this.name = 'BoxberryApiError';
    this.ref = refOfSaid(message);
  }
}

/** Boxberry did not accept the token: retried like an outage, so orders wait until the connection is fixed. */
export class BoxberryAuthError extends CredentialsRefusedError {
  constructor(message: Telling) {
    super(message);
    this.name = 'BoxberryAuthError';
  }
}

/** The shared transport's options (the address, the tests' fetch and waits, the log) and the account's token. */
export type BoxberryClientOptions = Omit<TransportOptions, 'service'> & { token: string };

/**
 * The transport to Boxberry: every call names its `method` and carries the token (query for GET, body for POST).
 * Boxberry answers refusals inside HTTP 200 (`err`, `error`+`message`, or an array holding one); those become
 * BoxberryApiError (BoxberryAuthError for a wrong token). No answer, 429 and 5xx are outages (the shared transport).
 */
/** Boxberry as messages name it. */
export const BOXBERRY = message('service.boxberry');

export function createBoxberryClient(options: BoxberryClientOptions) {
  const transport = createTransport({ service: BOXBERRY, baseUrl: options.baseUrl, fetch: options.fetch, clock: options.clock, timeoutMs: options.timeoutMs, log: options.log, onCall: options.onCall });

  function read(method: string, status: number, bytes: Uint8Array): unknown {
    const json = parseJsonBody(bytes);
    const refusal = boxberryError(json);
    if (refusal) {
      if (isTokenRefusal(refusal)) throw new BoxberryAuthError(said('provider.tokenRefusedShort', { service: BOXBERRY, detail: refusal }));
      throw new BoxberryApiError(refusal, status);
    }
    if (status >= 400) throw new BoxberryApiError(said('provider.httpStatusMethod', { service: BOXBERRY, status, method, body: bodyText(bytes) }), status);
    if (json === undefined) throw new ProviderUnavailableError(said('provider.notJsonMethod', { service: BOXBERRY, method }));
    return json;
  }

  return {
    /** A GET method with its parameters. */
    async get(method: string, params: Query = {}): Promise<unknown> {
      const reply = await transport.send({ method: 'GET', path: '', query: { token: options.token, method, ...params }, headers: { Accept: 'application/json' } });
      return read(method, reply.status, reply.bytes);
    },

    /** A POST method with its JSON body (token and method inside it too, as Boxberry asks). */
    async post(method: string, body: Record<string, unknown>): Promise<unknown> {
      const reply = await transport.send({
        method: 'POST',
        path: '',
        query: { token: options.token, method },
        headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
        body: JSON.stringify({ token: options.token, method, ...body }),
      });
      return read(method, reply.status, reply.bytes);
    },

    /** A print form Boxberry links to (labels, acts): its PDF. */
    async download(url: string): Promise<Uint8Array> {
      const target = new URL(url);
      const files = createTransport({ service: BOXBERRY, baseUrl: target.origin, fetch: options.fetch, clock: options.clock, timeoutMs: options.timeoutMs, log: options.log, onCall: options.onCall });
      const reply = await files.send({ method: 'GET', path: target.pathname + target.search, headers: { Accept: 'application/pdf' } });
      if (reply.status >= 400) throw new BoxberryApiError(said('provider.printFormHttp', { service: BOXBERRY, path: target.pathname, status: reply.status }), reply.status);
      if (new TextDecoder().decode(reply.bytes.slice(0, 5)) !== '%PDF-') throw new ProviderUnavailableError(said('provider.notPdf', { service: BOXBERRY, path: target.pathname }));
      return reply.bytes;
    },
  };
}

export type BoxberryClient = ReturnType<typeof createBoxberryClient>;
