import http from 'node:http';
import https from 'node:https';
import { said, type CoreMessageKey, type MessageRef } from '../../../shared/messages';
import { bareHost, isLocalLiteral, publicOnlyLookup } from '../net/public-lookup';

/** Why a call got no HTTP answer, in words that name no address or port (they go to the attempts list), and by key. */
export class CallFailed extends Error {
  readonly ref: MessageRef;
  constructor(reason: { message: string } & MessageRef) {
    super(reason.message);
    this.ref = { key: reason.key, ...(reason.params && { params: reason.params }) };
  }
}

/** The reasons that take no parameter (all but the timeout's). */
type FixedReason = Exclude<Extract<CoreMessageKey, `webhook.${string}`>, 'webhook.timeout' | 'webhook.redirect' | 'webhook.orderGone'>;
const failed = (key: FixedReason) => new CallFailed(said(key));

/** The addresses checked are the ones the socket connects to (see publicOnlyLookup). */
const publicOnly = publicOnlyLookup({ refusal: () => failed('webhook.notPublic'), unresolved: () => failed('webhook.noHost') });

export interface PostOptions {
  /** The owner allowed calls to this computer and the local network. */
  allowLocal: boolean;
  /** For the whole call, connection to the answer's status line. */
  timeoutMs: number;
}

/**
 * POSTs a body and resolves with the answer's HTTP status (its body is not read). http(s) only; unless
 * local addresses are allowed, every address the host resolves to must be public. Redirects are not
 * followed: a 3xx is an answer like any other.
 */
export function guardedPost(url: string, body: string, headers: Record<string, string>, options: PostOptions): Promise<number> {
  const target = new URL(url);
  if (target.protocol !== 'http:' && target.protocol !== 'https:') return Promise.reject(failed('webhook.notHttp'));
  if (!options.allowLocal && isLocalLiteral(bareHost(target))) return Promise.reject(failed('webhook.notPublic'));
  const send = target.protocol === 'https:' ? https.request : http.request;
  return new Promise<number>((resolve, reject) => {
    let settled = false;
    const finish = (error: Error | null, status?: number) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error) reject(error);
      else resolve(status!);
    };
    const req = send(
      target,
      {
        method: 'POST',
        headers: { ...headers, 'Content-Length': Buffer.byteLength(body) },
        ...(options.allowLocal ? {} : { lookup: publicOnly }),
      },
      (res) => {
        finish(null, res.statusCode ?? 0);
        res.destroy(); // the site's answer body is not ours to read
      },
    );
    const timer = setTimeout(() => {
      finish(new CallFailed(said('webhook.timeout', { seconds: Math.round(options.timeoutMs / 1000) })));
      req.destroy();
    }, options.timeoutMs);
    req.on('error', (error) => finish(error instanceof CallFailed ? error : describe(error)));
    req.end(body);
  });
}

/** A network error in words of its own: the system's text names addresses and ports. */
function describe(error: Error & { code?: string }): CallFailed {
  switch (error.code) {
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return failed('webhook.noHost');
    case 'ECONNREFUSED':
      return failed('webhook.refused');
    case 'ECONNRESET':
    case 'EPIPE':
      return failed('webhook.closed');
    case 'ETIMEDOUT':
      return failed('webhook.slow');
    default:
      return failed(error.code?.startsWith('ERR_TLS') || /certificate|SSL/i.test(error.message) ? 'webhook.certificate' : 'webhook.unreachable');
  }
}

/** A call's failure as a reason: its own when it is a CallFailed, else that the site could not be reached. */
export const callFailedOf = (error: unknown): CallFailed => (error instanceof CallFailed ? error : failed('webhook.unreachable'));
