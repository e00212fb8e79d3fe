import type { LanSettings } from '../../../shared/contract/lan';
import { createHttpServer, type HttpServer } from '../api/http-server';
import { allRoutes } from '../api/routes';
import type { App } from '../app';
import { lanUrl, type LanListeners } from './lan-service';

const problemOf = (error: unknown): LanListeners[number]['problem'] => {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'EADDRINUSE' ? 'in-use' : code === 'EADDRNOTAVAIL' ? 'not-available' : code === 'EACCES' ? 'denied' : 'other';
};

/** The Host headers the LAN door answers to: the owner's names and addresses on its port, nothing else. */
export function lanHosts(settings: Pick<LanSettings, 'names' | 'addresses'>, port: number): Set<string> {
  return new Set([...settings.names, ...settings.addresses].map((host) => `${host.includes(':') ? `[${host}]` : host}:${port}`.toLowerCase()));
}

/**
 * LAN mode's door: HTTPS on the addresses the owner chose, beside the 127.0.0.1 server the shell runs anyway.
 * It serves the web UI and the window's transport (packers sign in there) and the delivery interface only
 * when the owner offers it. Follows the setting at once (lan.set); stopped with the app.
 */
export async function startLanDoor(app: App, options: { webRoot?: string }) {
  let open: { address: string; port: number; http: HttpServer | null; problem: LanListeners[number]['problem']; detail: string | null }[] = [];
  let queue: Promise<void> = Promise.resolve();

  async function closeAll(): Promise<void> {
    const closing = open.flatMap((entry) => (entry.http ? [entry.http.close()] : []));
    open = [];
    await Promise.all(closing);
  }

  async function follow(settings: LanSettings): Promise<void> {
    await closeAll();
    if (!settings.enabled) return;
    const tls = await app.services.lan.certificate(settings);
    const hosts = lanHosts(settings, settings.port);
    const routes = allRoutes(app, { windowTransport: true });
    for (const address of settings.addresses) {
      const http = createHttpServer({
        app,
        routes,
        webRoot: options.webRoot,
        tls,
        acceptsHost: (host) => hosts.has(host),
        interfaceEnabled: async () => settings.offerInterface && (await app.services.settings.localApiEnabled()),
      });
      try {
        await http.listen(settings.port, address);
        open.push({ address, port: settings.port, http, problem: null, detail: null });
        app.log.info(`LAN mode: listening on ${lanUrl(address, settings.port)}`);
      } catch (error) {
        open.push({ address, port: settings.port, http: null, problem: problemOf(error), detail: (error as Error).message });
        app.log.warn(`LAN mode: cannot listen on ${address}:${settings.port}: ${(error as Error).message}`);
      }
    }
  }

  const control = {
    /** One change at a time: a second lan.set waits for the first to be listening (or closed). */
    apply(settings: LanSettings): Promise<void> {
      queue = queue.then(() => follow(settings)).catch((error: unknown) => app.log.error('LAN mode could not follow its setting', error));
      return queue;
    },
    listeners: (): LanListeners => open.map(({ address, port, problem, detail }) => ({ address, port, url: lanUrl(address, port), problem, detail })),
  };
  await app.services.lan.attach(control);

  return {
    /** Stops listening on the shop's network (the app is closing). */
    async close(): Promise<void> {
      app.services.lan.detach();
      await queue;
      await closeAll();
    },
  };
}
