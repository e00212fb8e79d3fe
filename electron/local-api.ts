import { allRoutes } from './core/api/routes';
import { createHttpServer } from './core/api/http-server';
import type { createApp } from './core/app';

type App = Awaited<ReturnType<typeof createApp>>;

/** The port the desktop app serves the local interface on unless SHIPDESK_API_PORT says otherwise. */
export const defaultApiPort = 4318;

/**
 * The delivery interface on 127.0.0.1 only; in browser mode (a webRoot) also the web UI and the command
 * transport it talks over. Both shells start it: the desktop app so the shop's website or accounting
 * program can register shipments beside the window (its window uses IPC, so no transport: the interface's
 * token must not open the settings), `npm run serve` as the whole app. The settings page learns the
 * address from announceLocalApi.
 */
export async function startLocalApi(app: App, options: { port: number; webRoot?: string; windowTransport: boolean }) {
  const http = createHttpServer({ app, routes: allRoutes(app, { windowTransport: options.windowTransport }), webRoot: options.webRoot });
  const port = await http.listen(options.port);
  const base = `http://127.0.0.1:${port}`;
  app.announceLocalApi(`${base}/v1`);
  return { port, base, close: () => http.close() };
}

/** The desktop app's port: SHIPDESK_API_PORT when it is a valid port number, else the default. */
export function desktopApiPort(env: Record<string, string | undefined> = process.env): number {
  const wanted = Number(env.SHIPDESK_API_PORT);
  return Number.isInteger(wanted) && wanted >= 0 && wanted <= 65535 && env.SHIPDESK_API_PORT?.trim() ? wanted : defaultApiPort;
}
