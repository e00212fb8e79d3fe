import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { z } from 'zod';
import type { ErrorCodeValue } from '../../../shared/errors';
import type { App } from '../app';
import type { Visitor } from '../auth/caller';
import type { CallContext } from '../companies/company-service';
import { parseInput } from '../validation';
import type { WireFormat } from './codec';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

/** Query parameters as a route's schema sees them: one value as text, a repeated or PHP-style (`a[]`, `a[0]`) one as a list. */
export type QueryValues = Record<string, string | string[]>;

export interface ApiRequest<Params = Record<string, string>, Query = QueryValues, Body = unknown> {
  method: HttpMethod;
  /** Path without the optional /v1 prefix. */
  path: string;
  /** Path parameters, parsed with the route's `params` schema when it has one. */
  params: Params;
  /** Query parameters, parsed with the route's `query` schema when it has one. */
  query: Query;
  headers: IncomingHttpHeaders;
  /** The decoded body, parsed with the route's `body` schema when it has one. */
  body: Body;
  /** The calling company; routes marked public get none. */
  ctx: CallContext;
  /** Who calls: an API client on the interface; on the window's transport (session routes) a session's owner or packer, or a guest. */
  caller: Visitor;
  format: WireFormat;
  /** The caller's address (rate limits of unauthenticated routes). */
  remoteAddress?: string;
  /** Reached over HTTPS (LAN mode): links this server hands out use the same scheme. */
  secure?: boolean;
}

/** A 200 answer already encoded in the request's format (a cached page). */
export interface EncodedAnswer {
  encoded: { contentType: string; bytes: Buffer };
}

/** A route answers with a value (sent as 200) or with an explicit status, or its bytes, or takes over the response (streams). */
export type RouteResult = unknown | { status: number; body: unknown } | EncodedAnswer | { stream: (res: ServerResponse) => void };

export interface ErrorRow {
  status: number;
  code: ErrorCodeValue;
  when: string;
}

export type Tag = 'Lists' | 'Orders' | 'Statuses' | 'Calculator' | 'Upload' | 'Integration' | 'Reference';

/** The reference of one interface operation: `/openapi.json` and `/docs` are generated from it and the route's schemas. */
export interface RouteDoc {
  /** operationId, also the anchor on the reference page. */
  id: string;
  tag: Tag;
  summary: string;
  summaryRu: string;
  /** CommonMark: paragraphs, `- ` lists, `code`, **bold**. "(ours)" marks a decision the interface leaves open. */
  description: string;
  /** Media types of the answer. */
  formats: ('json' | 'xml' | 'html' | 'file')[];
  /** Descriptions of the path and query parameters, by name (their schemas are the route's). */
  params?: Record<string, { description: string; example?: string }>;
  /** Component name and description of the request body (its schema is the route's `body`). */
  body?: { name: string; description: string; example?: unknown };
  /** Component name and description of the 200 answer (its schema is the route's `answer`). */
  answer: { name: string; description: string; example?: unknown };
  /** Other shapes of the 200 answer (upload: sync or async). */
  alternatives?: { name: string; schema: z.ZodType; description: string }[];
  errors: ErrorRow[];
}

/**
 * One operation of the local HTTP server: its path, the zod schemas its input is parsed with before the
 * handler runs (the same ones the reference documents), what it answers, and its documentation.
 */
export interface Route<Params = Record<string, string>, Query = QueryValues, Body = unknown> {
  method: HttpMethod;
  /** `/orders/:orderId/cancel`; served with and without the /v1 prefix. */
  pattern: string;
  /** Reachable without a token (the reference documents, the login). */
  public?: boolean;
  /**
   * The window's transport (/app/...): the caller comes from a browser session (`Authorization: Session
   * <secret>`), and the route checks the caller's role itself; an API token is only a client there.
   */
  session?: boolean;
  /** Largest accepted body in bytes, or by the path's parameters (a command's own); default 1 MiB. */
  bodyLimit?: number | ((params: Record<string, string>) => number);
  /**
   * A body field holding a base64 file (`file.base64`) that the handler decodes with import/incoming-file.ts
   * decodeBase64: a long one is decoded in the body-parsing thread and only a token of its bytes reaches the
   * main thread (held-bytes.ts), never its text. By the path's parameters where it depends on them (a command's).
   */
  bodyFile?: string | ((params: Record<string, string>) => string | undefined);
  params?: z.ZodType<Params>;
  query?: z.ZodType<Query>;
  body?: z.ZodType<Body>;
  /** What a 200 answer is (documented; the tests hold the answers to it). */
  answer?: z.ZodType;
  /**
   * What a value of a path parameter looks like when it names something (an order id is digits). A path
   * whose value does not is not this resource: another method on it is 404 "no such operation", not 405
   * (`POST /orders/labels` where only `/orders/{orderId}` has GET, PUT and DELETE).
   */
  ids?: Record<string, RegExp>;
  /** How input that breaks a schema is refused; default 040002 (the calculator's is 040003). */
  parse?: <S extends z.ZodType>(schema: S, raw: unknown) => z.output<S>;
  /** Runs once the path is parsed, before the query and body are (an unknown order is 404 whatever the body). */
  before?(req: ApiRequest<Params, QueryValues, unknown>, app: App): Promise<void>;
  /** Interface routes are documented; the window's transport is not. */
  doc?: RouteDoc;
  handler(req: ApiRequest<Params, Query, Body>, app: App): Promise<RouteResult>;
}

/** A route with its types inferred from its schemas. */
export const defineRoute = <Params = Record<string, string>, Query = QueryValues, Body = unknown>(route: Route<Params, Query, Body>) =>
  route as unknown as Route;

export const withStatus = (status: number, body: unknown) => ({ status, body });

export const isWithStatus = (r: RouteResult): r is { status: number; body: unknown } =>
  typeof r === 'object' && r !== null && 'status' in r && 'body' in r && typeof (r as { status: unknown }).status === 'number';

export const isEncoded = (r: RouteResult): r is EncodedAnswer =>
  typeof r === 'object' && r !== null && 'encoded' in r && Buffer.isBuffer((r as EncodedAnswer).encoded?.bytes);

export const isStream = (r: RouteResult): r is { stream: (res: ServerResponse) => void } =>
  typeof r === 'object' && r !== null && 'stream' in r && typeof (r as { stream: unknown }).stream === 'function';

/** The query string as a route's schema reads it (a Map first: keys such as `__proto__` are plain names here). */
export function queryValues(search: URLSearchParams): QueryValues {
  const values = new Map<string, string[]>();
  const lists = new Set<string>();
  for (const [rawKey, value] of search) {
    const key = rawKey.replace(/\[\d*\]$/, '');
    if (key !== rawKey) lists.add(key);
    values.set(key, [...(values.get(key) ?? []), value]);
  }
  const query: QueryValues = Object.create(null);
  for (const [key, list] of values) query[key] = list.length === 1 && !lists.has(key) ? list[0] : list;
  return query;
}

/**
 * Parses a request with the route's schemas, in the order a caller would expect to hear about problems:
 * the path, what `before` checks (the thing the path names exists), the query, the body. Bad input is
 * refused before the handler runs.
 */
export async function parseRequest(route: Route, req: ApiRequest<Record<string, string>, QueryValues, unknown>, app: App): Promise<ApiRequest> {
  const parse = route.parse ?? parseInput;
  const parsed: ApiRequest = { ...req, params: route.params ? parse(route.params, req.params) : req.params };
  if (route.before) await route.before(parsed, app);
  parsed.query = route.query ? parse(route.query, req.query) : req.query;
  // No body reads as an empty one, so each missing field is named.
  parsed.body = route.body ? parse(route.body, req.body ?? {}) : req.body;
  return parsed;
}

/** Compiles patterns once; matches a path to a route and its parameters. */
export function createRouter(routes: Route[]) {
  const compiled = routes.map((route) => {
    const names: string[] = [];
    const source = route.pattern.replace(/:(\w+)/g, (_, name: string) => {
      names.push(name);
      return '([^/]+)';
    });
    return { route, names, regex: new RegExp(`^${source}/?$`) };
  });
  return {
    /** The route for method and path, or which methods the path has (for 405), or nothing (404). */
    match(method: string, path: string): { route: Route; params: Record<string, string> } | { allowed: string[] } | null {
      const allowed: string[] = [];
      for (const { route, names, regex } of compiled) {
        const m = regex.exec(path);
        if (!m) continue;
        const params: Record<string, string> = {};
        names.forEach((name, i) => {
          params[name] = decodeURIComponent(m[i + 1]);
        });
        if (route.method !== method) {
          if (Object.entries(route.ids ?? {}).every(([name, shape]) => shape.test(params[name]))) allowed.push(route.method);
          continue;
        }
        return { route, params };
      }
      return allowed.length ? { allowed } : null;
    },
  };
}

/** `/v1/orders` and `/orders` are the same route; so are `//orders` and `/orders` (clients that join a base URL ending in `/`). */
export function stripVersion(path: string) {
  const single = path.replace(/\/{2,}/g, '/');
  return single === '/v1' ? '/' : single.startsWith('/v1/') ? single.slice(3) : single;
}
