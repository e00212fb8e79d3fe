import { message, refOfSaid, said, type MessageRef } from '../../../../shared/messages';
import { systemClock } from '../../clock';
import { CredentialsRefusedError, ProviderUnavailableError, type Telling } from '../provider';
import { createTokenCache } from '../token-cache';
import { bodyText, createTransport, parseJsonBody, type HttpReply, type TransportOptions } from '../transport';
import { fivePostError, isJwtRefusal } from './mapping';
import { fivePostJwtSchema } from './wire';

/** 5Post's hosts (carriers-ru.md, lapaygroup/fivepost-sdk): production and the public pre-production host. */
export const FIVEPOST_URL = 'https://api-omni.x5.ru';
export const FIVEPOST_TEST_URL = 'https://api-preprod-omni.x5.ru';

/** The claims the JWT is asked for with (the SDK's form). */
const JWT_CLAIMS = { subject: 'OpenAPI', audience: 'A122019!' };
/** A JWT without `exp` is taken to live an hour (the SDK's README: "Токен живет 1 час"). */
const DEFAULT_JWT_LIFETIME_MS = 60 * 60 * 1000;
/** A JWT is renewed this long before it expires (at most half its lifetime). */
const RENEW_BEFORE_MS = 60 * 1000;

/** 5Post as messages name it. */
export const FIVEPOST = message('service.fivepost');

/** 5Post answered and refused: `{ success: false, errorCode, errorMsg }`, or a 4xx without it. */
export class FivePostApiError extends Error {
  /** The message as data when it is ours (an HTTP status); 5Post's own words have none. */
  readonly ref?: MessageRef;

  constructor(
    readonly code: string,
    message: Telling,
    readonly httpStatus: number,
  ) {
    super(typeof message === 'string' ? message : message.message);
    this.name = 'FivePostApiError';
    this.ref = refOfSaid(message);
  }
}

/** 5Post did not accept the API key (or refused a fresh JWT): retried like an outage, so orders wait for the fix. */
export class FivePostAuthError extends CredentialsRefusedError {
  constructor(message: Telling) {
    super(message);
    this.name = 'FivePostAuthError';
  }
}

/** When a JWT expires (epoch ms), from its `exp` claim; null when the token carries none or cannot be read. */
export function jwtExpiry(jwt: string): number | null {
  try {
    const payload = JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString('utf8')) as { exp?: unknown };
    return typeof payload.exp === 'number' ? payload.exp * 1000 : null;
  } catch {
    return null;
  }
}

/** The shared transport's options (the host, the tests' fetch and waits, the log) and the account's API key. */
export type FivePostClientOptions = Omit<TransportOptions, 'service'> & { apiKey: string };

/**
 * The transport to 5Post: a JWT got for the API key (`/jwt-generate-claims/rs256/1`), kept until shortly before its
 * `exp` and renewed once when 5Post refuses it (expired early, revoked); concurrent calls share one renewal. Refusals
 * `{ success: false, errorCode, errorMsg }` (and other 4xx) are FivePostApiError; no answer, 429 and 5xx are outages
 * (the shared transport).
 */
export function createFivePostClient(options: FivePostClientOptions) {
  const clock = options.clock ?? systemClock;
  const transport = createTransport({ service: FIVEPOST, baseUrl: options.baseUrl, fetch: options.fetch, clock, timeoutMs: options.timeoutMs, log: options.log, onCall: options.onCall });

  async function signIn(): Promise<{ value: string; expiresAt: number }> {
    const reply = await transport.send({
      method: 'POST',
      path: '/jwt-generate-claims/rs256/1',
      query: { apikey: options.apiKey },
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
      body: new URLSearchParams(JWT_CLAIMS).toString(),
    });
    const json = parseJsonBody(reply.bytes);
    const parsed = fivePostJwtSchema.safeParse(json);
    if (reply.status >= 400 || !parsed.success) {
      const refusal = fivePostError(json);
      throw new FivePostAuthError(said('provider.apiKeyRefused', { service: FIVEPOST, detail: refusal ? `${refusal.code} ${refusal.message}` : `HTTP ${reply.status} ${bodyText(reply.bytes)}` }));
    }
    return { value: parsed.data.jwt, expiresAt: jwtExpiry(parsed.data.jwt) ?? clock.now() + DEFAULT_JWT_LIFETIME_MS };
  }
  const jwts = createTokenCache({ clock, renewBeforeMs: RENEW_BEFORE_MS, issue: signIn });

  async function authorized(method: string, path: string, body: unknown, accept: string): Promise<HttpReply> {
    const attempt = async (token: string) =>
      transport.send({
        method,
        path,
        headers: { Authorization: `Bearer ${token}`, Accept: accept, ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    // Expired or revoked before its time: one fresh JWT, one more try.
    const { reply, refusedAgain } = await jwts.send(attempt, (r) => isJwtRefusal(r.status, parseJsonBody(r.bytes)));
    if (refusedAgain) throw new FivePostAuthError(said('provider.freshJwtRefused', { service: FIVEPOST, method, path, status: reply.status }));
    return reply;
  }

  function refused(method: string, path: string, reply: HttpReply, json: unknown): FivePostApiError | null {
    const refusal = fivePostError(json);
    if (refusal) return new FivePostApiError(refusal.code, refusal.message, reply.status);
    if (reply.status >= 400) return new FivePostApiError(`HTTP_${reply.status}`, said('provider.httpStatusBody', { service: FIVEPOST, status: reply.status, method, path, body: bodyText(reply.bytes) }), reply.status);
    return null;
  }

  return {
    /** A JSON call; its answer. */
    async call(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<unknown> {
      const reply = await authorized(method, path, body, 'application/json');
      const json = parseJsonBody(reply.bytes);
      const refusal = refused(method, path, reply, json);
      if (refusal) throw refusal;
      if (json === undefined && reply.bytes.length > 0) throw new ProviderUnavailableError(said('provider.notJson', { service: FIVEPOST, method, path }));
      return json;
    },

    /** A print form: its bytes and content type (PDF, or a ZIP of PDFs). */
    async file(path: string, body: unknown): Promise<{ bytes: Uint8Array; contentType: string }> {
      const reply = await authorized('POST', path, body, 'application/pdf, application/zip');
      const refusal = refused('POST', path, reply, parseJsonBody(reply.bytes));
      if (refusal) throw refusal;
      return { bytes: reply.bytes, contentType: reply.headers.get('content-type') ?? '' };
    },

    /** Signs in now ("test connection"); the JWT's lifetime in seconds. */
    authenticate: (): Promise<{ expiresInSeconds: number }> => jwts.renew(),

    /** How many JWTs were issued to this client (tests: token expiry). */
    jwtsIssued: () => jwts.issued(),
  };
}

export type FivePostClient = ReturnType<typeof createFivePostClient>;
