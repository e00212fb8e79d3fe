import { message, said } from '../../../../shared/messages';
import { CredentialsRefusedError, ProviderUnavailableError, type Telling } from '../provider';
import { bodyText, createTransport, parseJsonBody, type Query, type TransportOptions } from '../transport';
import { callRefusal, isAuthRefusal, isNotFound, type PostRefusal } from './mapping';

/** The Otpravka API's host (carriers-ru.md); paths under /1.0/ and /postoffice/1.0/. No public test host is known. */
export const OTPRAVKA_URL = 'https://otpravka-api.pochta.ru';

/** Russian Post answered and refused the whole call (non-2xx with its error body, or an error inside HTTP 200). */
export class RussianPostApiError extends Error {
  constructor(
    readonly refusal: PostRefusal,
    readonly httpStatus: number,
  ) {
    super(refusal.description === refusal.code ? refusal.code : `${refusal.description} (${refusal.code})`);
    this.name = 'RussianPostApiError';
  }

  get notFound() {
    return isNotFound(this.refusal.code, this.httpStatus);
  }
}

/** Russian Post did not accept the access token or the user key: retried like an outage, so orders wait until the connection is fixed. */
export class RussianPostAuthError extends CredentialsRefusedError {
  constructor(message: Telling) {
    super(message);
    this.name = 'RussianPostAuthError';
  }
}

/** The shared transport's options and the account's two credentials. */
export type RussianPostClientOptions = Omit<TransportOptions, 'service'> & { accessToken: string; userKey: string };

const isPdf = (bytes: Uint8Array) => new TextDecoder().decode(bytes.slice(0, 5)) === '%PDF-';

/**
 * The transport to the Otpravka API: `Authorization: AccessToken …` and `X-User-Authorization: Basic …` on every
 * call. A refusal of the whole call becomes RussianPostApiError (RussianPostAuthError for 401/403); refusals of single
 * orders inside a 200 answer are left to the caller, which knows their positions. No answer, 429 and 5xx are outages.
 */
/** Russian Post as messages name it. */
export const RUSSIAN_POST = message('service.russianPost');

export function createRussianPostClient(options: RussianPostClientOptions) {
  const transport = createTransport({ service: RUSSIAN_POST, baseUrl: options.baseUrl, fetch: options.fetch, clock: options.clock, timeoutMs: options.timeoutMs, log: options.log, onCall: options.onCall });
  const headers = { Authorization: `AccessToken ${options.accessToken}`, 'X-User-Authorization': `Basic ${options.userKey}` };

  function refuse(path: string, status: number, bytes: Uint8Array, json: unknown): never {
    const refusal = callRefusal(json) ?? { code: `HTTP_${status}`, description: `Russian Post answered HTTP ${status} to ${path}: ${bodyText(bytes)}` };
    if (isAuthRefusal(refusal.code, status)) throw new RussianPostAuthError(said('provider.keysRefused', { service: RUSSIAN_POST, detail: refusal.description }));
    throw new RussianPostApiError(refusal, status);
  }

  return {
    /** A JSON call; its answer as JSON, or RussianPostApiError when the service refused the call as a whole. */
    async call(method: string, path: string, init: { query?: Query; body?: unknown } = {}): Promise<unknown> {
      const reply = await transport.send({
        method,
        path,
        query: init.query,
        headers: { ...headers, Accept: 'application/json;charset=UTF-8', ...(init.body !== undefined ? { 'Content-Type': 'application/json;charset=UTF-8' } : {}) },
        body: init.body !== undefined ? JSON.stringify(init.body) : undefined,
      });
      const json = parseJsonBody(reply.bytes);
      if (reply.status >= 400) refuse(path, reply.status, reply.bytes, json);
      if (reply.bytes.length === 0) return null;
      if (json === undefined) throw new ProviderUnavailableError(said('provider.notJson', { service: RUSSIAN_POST, method, path }));
      const whole = callRefusal(json);
      if (whole) refuse(path, reply.status, reply.bytes, json);
      return json;
    },

    /** A print form (Ф7, Ф112, Ф103): its PDF. */
    async pdf(path: string, query: Query = {}): Promise<Uint8Array> {
      const reply = await transport.send({ method: 'GET', path, query, headers: { ...headers, Accept: 'application/pdf' } });
      if (reply.status >= 400) refuse(path, reply.status, reply.bytes, parseJsonBody(reply.bytes));
      if (!isPdf(reply.bytes)) {
        const json = parseJsonBody(reply.bytes);
        if (callRefusal(json)) refuse(path, reply.status, reply.bytes, json);
        throw new ProviderUnavailableError(said('provider.notPdf', { service: RUSSIAN_POST, path }));
      }
      return reply.bytes;
    },
  };
}

export type RussianPostClient = ReturnType<typeof createRussianPostClient>;
