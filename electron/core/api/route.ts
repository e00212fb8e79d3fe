import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { CallContext } from '../companies/company-service';
import type { WireFormat } from './codec';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

export interface ApiRequest {
  method: HttpMethod;
  /** Path without the optional /v1 prefix. */
  path: string;
  params: Record<string, string>;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: unknown;
  /** The calling company; routes marked public get none. */
  ctx: CallContext;
  format: WireFormat;
}

/** A route answers with a value (sent as 200) or with an explicit status, or takes over the response (streams). */
export type RouteResult = unknown | { status: number; body: unknown } | { stream: (res: ServerResponse) => void };

export interface Route {
  method: HttpMethod;
  /** `/orders/:orderId/cancel`; served with and without the /v1 prefix. */
  pattern: string;
  handler: (req: ApiRequest) => Promise<RouteResult>;
  /** Reachable without a token (static reference documents only). */
  public?: boolean;
  /** Largest accepted body in bytes; default 1 MiB. */
  bodyLimit?: number;
}

export const withStatus = (status: number, body: unknown) => ({ status, body });

export const isWithStatus = (r: RouteResult): r is { status: number; body: unknown } =>
  typeof r === 'object' && r !== null && 'status' in r && 'body' in r && typeof (r as { status: unknown }).status === 'number';

export const isStream = (r: RouteResult): r is { stream: (res: ServerResponse) => void } =>
  typeof r === 'object' && r !== null && 'stream' in r && typeof (r as { stream: unknown }).stream === 'function';

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
        if (route.method !== method) {
          allowed.push(route.method);
          continue;
        }
        const params: Record<string, string> = {};
        names.forEach((name, i) => {
          params[name] = decodeURIComponent(m[i + 1]);
        });
        return { route, params };
      }
      return allowed.length ? { allowed } : null;
    },
  };
}

/** `/v1/orders` and `/orders` are the same route. */
export const stripVersion = (path: string) => (path === '/v1' ? '/' : path.startsWith('/v1/') ? path.slice(3) : path);
