import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createApp, type AppOptions } from './core/app';
import { startLanDoor } from './core/lan/lan-door';
import { startLocalApi } from './local-api';
import type { ServeOptions } from './serve-args';

const builtUi = fileURLToPath(new URL('../dist/', import.meta.url));

/**
 * The headless core: database, workers, the local interface and the web UI on 127.0.0.1.
 * Each --token gets its client company (the delivery interface only); the UI link carries a new owner
 * session of the shop (not an API token), and the previous run's link stops working.
 */
export async function startBrowserMode(options: ServeOptions, appOptions: Partial<AppOptions> = {}) {
  const app = await createApp({ dataDir: options.dataDir, database: options.database, startWorkers: true, ...(options.outbox && { outbox: options.outbox }), ...appOptions });
  try {
    for (const token of options.tokens) await app.services.companies.ensureWithToken(token);
    const desktop = await app.services.companies.desktop();
    if (options.login) {
      const last = options.tokens.at(-1);
      const company = last ? await app.services.companies.ensureWithToken(last) : { companyId: desktop.companyId };
      await app.services.apiLogins.set(company, options.login);
    }
    const owner = await app.services.auth.openOwnerSession();
    const webRoot = options.webRoot ?? (existsSync(`${builtUi}index.html`) ? builtUi : undefined);
    const { port, base, close: stopServing } = await startLocalApi(app, { port: options.port, webRoot, windowTransport: true });
    // The shop's network only when the owner turned LAN mode on (Settings → Access from other computers).
    const lanDoor = await startLanDoor(app, { webRoot });
    return {
      app,
      port,
      base,
      uiUrl: `${base}/#session=${encodeURIComponent(owner.secret)}`,
      /** The owner session the link carries. */
      ownerSession: owner.secret,
      hasUi: webRoot !== undefined,
      newDesktopToken: desktop.created && options.tokens.length === 0 ? desktop.apiToken : undefined,
      /** Stops taking requests, finishes what is under way, closes the database. */
      async close() {
        await lanDoor.close();
        await stopServing();
        await app.close();
      },
    };
  } catch (error) {
    await app.close();
    throw error;
  }
}
