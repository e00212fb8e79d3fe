import { createHttpServer } from '../../electron/core/api/http-server';
import { allRoutes } from '../../electron/core/api/routes';
import type { AppOptions } from '../../electron/core/app';
import { createTestApp } from './test-app';

export interface CallOptions {
  body?: unknown;
  /** Raw body text (sent as is, for malformed input). */
  raw?: string | Buffer;
  token?: string | null;
  headers?: Record<string, string>;
}

/** A real HTTP server on a random 127.0.0.1 port over the real core, with two client companies. */
export async function startTestServer(options: Partial<AppOptions> = {}) {
  const testApp = await createTestApp(options);
  const { app } = testApp;
  const tokenA = 'token-company-a';
  const tokenB = 'token-company-b';
  const companyA = await app.services.companies.ensureWithToken(tokenA, 'Company A');
  const companyB = await app.services.companies.ensureWithToken(tokenB, 'Company B');
  /** The shop's own API token (its company is the one the window works with). */
  const shopToken = (await app.services.companies.desktop()).apiToken;
  /** The Authorization header of the owner's browser session, as the link `npm start` prints carries it. */
  const owner = `Session ${(await app.services.auth.openOwnerSession()).secret}`;
  const http = createHttpServer({ app, routes: allRoutes(app) });
  const port = await http.listen(0);
  const base = `http://127.0.0.1:${port}`;

  /** Calls the server; JSON unless headers say otherwise. Returns status, headers, text and parsed JSON. */
  async function call(method: string, path: string, options: CallOptions = {}) {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token !== null) headers.Authorization ??= options.token ?? tokenA;
    let body: string | Buffer | undefined;
    if (options.raw !== undefined) body = options.raw;
    else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['Content-Type'] ??= 'application/json';
    }
    const res = await fetch(base + path, { method, headers, body: typeof body === 'string' || body === undefined ? body : new Uint8Array(body) });
    const text = await res.text();
    let json: any;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: res.status, headers: res.headers, text, json };
  }

  return {
    ...testApp,
    base,
    port,
    tokenA,
    tokenB,
    companyA,
    companyB,
    shopToken,
    owner,
    call,
    /** Runs a command over the window's transport, as the owner unless told otherwise. */
    command: (name: string, body: unknown = {}, auth: string | null = owner) => call('POST', `/app/commands/${name}`, { body, token: auth }),
    async close() {
      await http.close();
      await testApp.close();
    },
  };
}

export type TestServer = Awaited<ReturnType<typeof startTestServer>>;
