import http from 'node:http';
import https from 'node:https';
import { bareHost, isLocalLiteral, publicOnlyLookup } from '../net/public-lookup';

/** Why a call got no HTTP answer, in words that name no address or port (they go to the attempts list). */
export class CallFailed extends Error {}

const notPublic = 'the address is not a public internet address (local and private networks are allowed only in the settings)';

/** The addresses checked are the ones the socket connects to (see publicOnlyLookup). */
const publicOnly = publicOnlyLookup({ refusal: () => new CallFailed(notPublic), unresolved: () => new CallFailed('the host name could not be resolved') });

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
  if (target.protocol !== 'http:' && target.protocol !== 'https:') return Promise.reject(new CallFailed('the link is not http:// or https://'));
  if (!options.allowLocal && isLocalLiteral(bareHost(target))) return Promise.reject(new CallFailed(notPublic));
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
      finish(new CallFailed(`no answer within ${Math.round(options.timeoutMs / 1000)} s`));
      req.destroy();
    }, options.timeoutMs);
    req.on('error', (error) => finish(error instanceof CallFailed ? error : new CallFailed(describe(error))));
    req.end(body);
  });
}

/** A network error in words of its own: the system's text names addresses and ports. */
function describe(error: Error & { code?: string }): string {
  switch (error.code) {
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'the host name could not be resolved';
    case 'ECONNREFUSED':
      return 'the site refused the connection';
    case 'ECONNRESET':
    case 'EPIPE':
      return 'the site closed the connection';
    case 'ETIMEDOUT':
      return 'the site could not be reached in time';
    default:
      return error.code?.startsWith('ERR_TLS') || /certificate|SSL/i.test(error.message) ? 'the site\'s HTTPS certificate was not accepted' : 'the site could not be reached';
  }
}
