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
import { DEFAULT_BODY_LIMIT, INLINE_PARSE_LIMIT, mibOf } from './body-limits';
import { createBodyParser, type BodyStream } from './body-parser';
import { decodeBody, encodeBody, fileKeys, parseText, requestFormat, responseFormat, type StreamedBody, type WireFormat } from './codec';
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


/**
 * A request answered before its body was read (refused by its headers: 401, 404, 405, a declared length past the
 * limit…): left unread, the body stalled its client mid-send on a connection that stayed open (a 20 MB POST with a
 * bad token got its 401 after 3.9 MB and was never read further nor closed). A body within DEFAULT_BODY_LIMIT is
 * read and dropped, so the client finishes sending and the connection serves the next request; a larger one, or
 * one of no declared length, is not read: the connection closes after the answer.
 */
function dropUnreadBody(req: IncomingMessage): Record<string, string> {
  const declared = Number(req.headers['content-length'] ?? 0);
  const hasBody = declared !== 0 || req.headers['transfer-encoding'] !== undefined;
  if (!hasBody || req.complete || req.readableFlowing !== null) return {}; // read, being read, or stopped by readBody
  if (!Number.isSafeInteger(declared) || declared <= 0 || declared > DEFAULT_BODY_LIMIT) return { Connection: 'close' };
  req.resume();
  return {};
}

function sendBytes(res: ServerResponse, status: number, contentType: string, bytes: string | Buffer, extraHeaders: Record<string, string> = {}) {
  res.writeHead(status, {
    ...dropUnreadBody(res.req),
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

/**
 * Reads a request body within `limit`. One of a declared length past INLINE_PARSE_LIMIT goes to a body-parsing
 * thread chunk by chunk as it arrives (`stream`), read only once a thread has taken it: gathered here, a 40 MB
 * body was 40 MB of fresh memory whose first touches held the main thread (306 ms of one 778 ms wait in the
 * bodies benchmark's profile at load 8-14, and 0.9–5 s when it was joined at the end). Smaller bodies, and
 * those of no declared length, are gathered here.
 */
function readBody(req: IncomingMessage, limit: number, stream?: (length: number) => BodyStream): Promise<Buffer | StreamedBody> {
  const tooLarge = () =>
    new AppError(413, { code: ErrorCode.general, message: 'Payload too large', ...describedBy(said('api.bodyTooLarge', { bytes: limit, mib: mibOf(limit) })) });
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit) return Promise.reject(tooLarge());
  const known = Number.isSafeInteger(declared) && declared > 0;
  const sink = stream && known && declared > INLINE_PARSE_LIMIT ? stream(declared) : null;
  return new Promise((resolve, reject) => {
    const whole = !sink && known ? Buffer.allocUnsafe(declared) : null;
    const chunks: Buffer[] = [];
    let size = 0;
    let ended = false;
    const fail = (error: Error) => {
      sink?.cancel(); // its thread drops the body and takes the next
      reject(error);
    };
    const read = () => {
      req.on('data', (chunk: Buffer) => {
        if (size + chunk.length > limit || (known && size + chunk.length > declared)) {
          req.pause();
          fail(tooLarge());
          return;
        }
        const length = chunk.length;
        if (sink) sink.write(chunk); // its memory moves to the thread
        else if (whole) chunk.copy(whole, size);
        else chunks.push(chunk);
        size += length;
      });
      req.on('end', () => {
        ended = true;
        resolve(sink ? { length: size, parsed: sink.finish() } : whole ? whole.subarray(0, size) : Buffer.concat(chunks));
      });
    };
    req.on('error', fail);
    req.on('close', () => {
      if (!ended) fail(new Error('the request closed before its body ended'));
    });
    if (sink) void sink.ready.then(read);
    else read();
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
      const field = typeof route.bodyFile === 'function' ? route.bodyFile(params) : route.bodyFile;
      const file = field ? { field, hold: (bytes: Buffer) => holdForRequest(res, bytes) } : undefined;
      const raw = method === 'GET' ? Buffer.alloc(0) : await readBody(req, limit, (length) => bodies.receive(length, requestFormat(req.headers), fileKeys(file)));
      if (!req.headers.accept && raw.length) format = requestFormat(req.headers);
      const body = await decodeBody(raw, req.headers, bodies, file);
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
