import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { createApp } from '../../electron/core/app';
import { silentLogger } from '../../electron/core/logger';
import { benchTempDir } from './child';
import { days, seedOrders } from './seed-orders';

/** The API token of the shop in the seeded order folders (serve --token), shared so one seeding serves both. */
export const seededShopToken = 'bench-shop-token-1';

/**
 * Seeded data folders for one run. A folder is first opened by the real app (migrations and whatever
 * a first start writes), then the orders go in with raw SQL; later uses get a copy, so a benchmark
 * that writes never disturbs the next.
 */
export function createSeededDirs(log: (m: string) => void) {
  const templates = new Map<string, Promise<string>>();
  const owned: (() => void)[] = [];

  async function seed(count: number, token: string): Promise<string> {
    const tmp = benchTempDir(`seed-${count}`);
    owned.push(tmp.remove);
    const started = performance.now();
    const app = await createApp({ dataDir: tmp.dir, log: silentLogger });
    try {
      await app.services.companies.ensureWithToken(token, 'Bench shop');
      // The shop's own orders, the ones its owner sees through serve's link (an API token's company is a client's).
      const { companyId } = await app.desktopContext();
      seedOrders(app.sqlite, { companyId, count, now: Date.now(), seed: 100_000 + count, spanMs: days(365), statuses: 'history' });
    } finally {
      await app.close();
    }
    log(`seeded ${count} orders in ${Math.round(performance.now() - started)} ms`);
    return tmp.dir;
  }

  return {
    async copy(count: number, token: string) {
      const key = `${count}:${token}`;
      if (!templates.has(key)) templates.set(key, seed(count, token));
      const template = await templates.get(key)!;
      const copy = benchTempDir(`data-${count}`);
      cpSync(template, join(copy.dir), { recursive: true });
      return copy;
    },
    /** Deletes the templates. */
    dispose() {
      for (const remove of owned) remove();
    },
  };
}
