import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp, type AppOptions } from '../../electron/core/app';
import { manualClock } from '../../electron/core/clock';
import { silentLogger } from '../../electron/core/logger';

/** A fresh data folder under the system temp dir, removed by the returned cleanup. */
export function tempDataDir(prefix = 'shipdesk-test-') {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The real core on a real SQLite file in a temp folder, with a hand-driven clock and no background workers. */
export async function createTestApp(options: Partial<AppOptions> = {}) {
  const data = tempDataDir();
  const clock = manualClock();
  const app = await createApp({ dataDir: data.dir, clock, log: silentLogger, ...options });
  const shop = await app.desktopContext();
  return {
    app,
    clock,
    shop,
    dataDir: data.dir,
    async close() {
      await app.close();
      data.remove();
    },
  };
}
