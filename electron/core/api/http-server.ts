import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { ErrorBody } from '../../../shared/errors';
import { ErrorCode } from '../../../shared/errors';
import { said } from '../../../shared/messages';
import type { App } from '../app';
import { clientOf, isCaller, type Visitor } from '../auth/caller';
import { tokenFrom } from '../companies/company-service';
import { holdBytes } from '../held-bytes';
import { AppError, describedBy, interfaceErrorBody, internalError, notFound, unauthorized, unexpectedError } from '../errors';
import { DEFAULT_BODY_LIMIT, mibOf } from './body-limits';
import { createBodyParser } from './body-parser';
import { decodeBody, encodeBody, parseText, requestFormat, responseFormat, type WireFormat } from './codec';
import { createRouter, isEncoded, isStream, isWithStatus, parseRequest, queryValues, stripVersion, type HttpMethod, type Route } from './route';
import { serveStatic } from './static-files';

export interface HttpServerOptions {
  app: App;
  routes: Route[];
  /** Folder of the built web UI (browser mode); none: API only. */
  webRoot?: string;
  /** Whether other programs may call the interface (the settings switch); default: the app's setting. /app/* is always served. */
  interfaceEnabled?: () => Promise<boolean>;
  /** Serve HTTPS with this key and certificate (the LAN door); default plain HTTP (127.0.0.1). */
  tls?: { key: string; cert: string };
  /** Which Host headers name this server (DNS rebinding); default 127.0.0.1 and localhost on its port. */
  acceptsHost?: (host: string, port: number) => boolean;
}

/** The Host check of the server on 127.0.0.1. */
export const isLocalHost = (host: string, port: number) => host === `127.0.0.1:${port}` || host === `localhost:${port}`;


function sendBytes(res: ServerResponse, status: number, contentType: string, bytes: string | Buffer, extraHeaders: Record<string, string> = {}) {
  res.writeHead(status, {
    'Content-Type': contentType,
    'Content-Length': Buffer.byteLength(bytes),
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    ...extraHeaders,
  });
  res.end(bytes);
}

function send(res: ServerResponse, status: number, value: unknown, format: WireFormat, extraHeaders: Record<string, string> = {}) {
  const { contentType, text } = encodeBody(value, format);
  sendBytes(res, status, contentType, text, extraHeaders);
}

/** Error bodies go out as the interface defines them: the messages' keys are for the app's own channel only. */
const sendError = (res: ServerResponse, status: number, body: ErrorBody, format: WireFormat, headers?: Record<string, string>) =>
  send(res, status, interfaceErrorBody(body), format, headers);

function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const tooLarge = () =>
    new AppError(413, { code: ErrorCode.general, message: 'Payload too large', ...describedBy(said('api.bodyTooLarge', { bytes: limit, mib: mibOf(limit) })) });
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit) return Promise.reject(tooLarge());
  return new Promise((resolve, reject) => {
    // A body of a declared length is copied into its buffer as it arrives: joined at the end, a 40 MB body was
    // one copy into 40 MB of fresh memory, a 0.9–5 s stall of the main thread on this machine (the first touch
    // of each page, not the copy, is what costs), where each piece as it comes takes a millisecond or two.
    const whole = Number.isSafeInteger(declared) && declared > 0 ? Buffer.allocUnsafe(declared) : null;
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      if (size + chunk.length > limit || (whole && size + chunk.length > whole.length)) {
        req.pause();
        reject(tooLarge());
        return;
      }
      if (whole) chunk.copy(whole, size);
      else chunks.push(chunk);
      size += chunk.length;
    });
    req.on('end', () => resolve(whole ? whole.subarray(0, size) : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** Holds a body's file bytes until the request has been answered (or its connection lost). */
function holdForRequest(res: ServerResponse, bytes: Buffer): string {
  const { token, release } = holdBytes(bytes);
  res.once('close', release);
  return token;
}

/**
 * The local HTTP server: the delivery interface, the browser-mode command transport and the web UI.
 * It answers only to 127.0.0.1/localhost Host headers (DNS rebinding) and sends no CORS headers.
 */
export function createHttpServer({
  app, routes, webRoot, tls, acceptsHost = isLocalHost, interfaceEnabled = () => app.services.settings.localApiEnabled(),
}: HttpServerOptions) {
  const router = createRouter(routes);
  const bodies = createBodyParser(parseText);
  const streams = new Set<ServerResponse>();
  let port = 0;

  async function handle(req: IncomingMessage, res: ServerResponse) {
    let format: WireFormat = responseFormat(req.headers);
    const host = (req.headers.host ?? '').toLowerCase();
    if (!acceptsHost(host, port)) {
      sendError(res, 403, { code: ErrorCode.general, message: 'Forbidden', description: 'Unexpected Host header' }, format);
      return;
    }
    const url = new URL(req.url ?? '/', `http://${host}`);
    const method = (req.method ?? 'GET').toUpperCase() as HttpMethod;
    let path: string;
    let matched: ReturnType<typeof router.match>;
    try {
      path = stripVersion(decodeURI(url.pathname));
      // The router decodes path parameters too: `%25E0` passes decodeURI as `%E0` and fails there.
      // Any method on a known path that has no route for it gets 405 with Allow, HEAD and OPTIONS included:
      // HEAD is not served as GET because GET /orders/{id}/cancel changes the order and a probe must not;
      // the interface sends no CORS headers, so OPTIONS has nothing to tell. Health checks: GET /v1/openapi.json.
      matched = router.match(method, path);
    } catch {
      sendError(res, 400, { code: ErrorCode.general, message: 'Bad request', description: 'Malformed URL' }, format);
      return;
    }

    if (!matched || 'allowed' in matched) {
      if (webRoot && (method === 'GET' || method === ('HEAD' as HttpMethod)) && !url.pathname.startsWith('/v1/') && (await serveStatic(webRoot, url.pathname, res))) return;
      if (matched && 'allowed' in matched) {
        sendError(res, 405, { code: ErrorCode.general, message: 'Method not allowed', description: `Use ${matched.allowed.join(', ')}` }, format, {
          Allow: matched.allowed.join(', '),
        });
        return;
      }
      const missing = notFound(said('notFound.operation', { method, path: url.pathname }));
      // The window's own channel (/app/…) keeps the message's key; an integrator gets the interface's body.
      if (url.pathname.startsWith('/app/')) send(res, missing.status, missing.body, format);
      else sendError(res, missing.status, missing.body, format);
      return;
    }

    const { route, params } = matched;
    try {
      const address = req.socket.remoteAddress ?? null;
      let ctx = { companyId: 0 };
      let caller: Visitor = { role: null, address };
      if (route.session) {
        caller = await app.services.auth.visitor(req.headers.authorization, address);
        if (isCaller(caller)) ctx = { companyId: caller.companyId };
      } else {
        if (!(await interfaceEnabled())) {
          throw new AppError(403, { code: ErrorCode.general, message: 'Forbidden', description: 'The local API is turned off in the ShipDesk settings' });
        }
        if (!route.public) {
          const company = await app.services.companies.byToken(tokenFrom(req.headers.authorization));
          if (!company) throw unauthorized();
          ctx = company;
          caller = clientOf(company.companyId, address);
        }
      }
      const limit = typeof route.bodyLimit === 'function' ? route.bodyLimit(params) : (route.bodyLimit ?? DEFAULT_BODY_LIMIT);
      const raw = method === 'GET' ? Buffer.alloc(0) : await readBody(req, limit);
      if (!req.headers.accept && raw.length) format = requestFormat(req.headers);
      const body = await decodeBody(raw, req.headers, bodies, route.bodyFile ? { field: route.bodyFile, hold: (bytes) => holdForRequest(res, bytes) } : undefined);
      const request = { method, path, params, query: queryValues(url.searchParams), headers: req.headers, body, ctx, caller, format, remoteAddress: req.socket.remoteAddress, secure: 'encrypted' in req.socket };
      const result = await route.handler(await parseRequest(route, request, app), app);
      if (isStream(result)) {
        streams.add(res);
        res.on('close', () => streams.delete(res));
        result.stream(res);
      }
      else if (isEncoded(result)) sendBytes(res, 200, result.encoded.contentType, result.encoded.bytes);
      else if (isWithStatus(result)) send(res, result.status, result.body, format);
      else send(res, 200, result, format);
    } catch (error) {
      const appError = error instanceof AppError ? error : unexpectedError(error);
      if (!(error instanceof AppError)) app.log.error(`${method} ${url.pathname} failed`, error);
      if (res.headersSent) res.destroy();
      else {
        const headers: Record<string, string> = appError.status === 413 ? { Connection: 'close' } : {};
        // The window's own channel (/app/…) keeps the messages' keys, as IPC does: the window says them in its language.
        if (route.session) send(res, appError.status, appError.body, format, headers);
        else sendError(res, appError.status, appError.body, format, headers);
      }
    }
  }

  const listener = (req: IncomingMessage, res: ServerResponse) => {
    handle(req, res).catch((error) => {
      app.log.error('request handling failed', error);
      if (!res.headersSent) sendError(res, 500, internalError().body, 'json');
      else res.destroy();
    });
  };
  const server: Server = tls ? createTlsServer({ key: tls.key, cert: tls.cert }, listener) : createServer(listener);
  // Requests Node refuses before they reach `handle` (a URL and headers over 16 KiB, a malformed request line,
  // a timeout) get the interface's error body too, instead of Node's bare status line.
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable || error.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    const [status, reason, description] =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'Request Header Fields Too Large', 'The URL and headers must be at most 16 KiB together']
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? [408, 'Request Timeout', 'The request took too long to arrive']
          : [400, 'Bad Request', 'Malformed HTTP request'];
    const body = JSON.stringify({ code: ErrorCode.general, message: reason, description } satisfies ErrorBody);
    socket.end(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${body}`,
    );
  });
  server.keepAliveTimeout = 5_000;
  server.headersTimeout = 15_000;
  server.requestTimeout = 120_000;

  return {
    server,
    /** Listens on 127.0.0.1 unless told another address (the LAN door); port 0 picks a free one. Resolves with the port. */
    listen(wanted: number, address = '127.0.0.1'): Promise<number> {
      return new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(wanted, address, () => {
          port = (server.address() as AddressInfo).port;
          resolve(port);
        });
      });
    },
    /** Stops taking connections, ends event streams and waits for the open requests to finish. */
    close(): Promise<void> {
      return new Promise((resolve) => {
        server.close(() => void bodies.close().then(resolve));
        for (const res of streams) res.end();
        server.closeIdleConnections();
      });
    },
  };
}

export type HttpServer = ReturnType<typeof createHttpServer>;
