import { existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServeProcess } from '../helpers/serve-process';
import { tempDataDir } from '../helpers/test-app';

/**
 * Browser mode starts an import's reading worker ahead once its UI is served (electron/serve.ts), as the desktop
 * app does once its window shows: the first import then does not wait for a worker to start.
 *
 * Seen from outside without any clock: every import worker gets a temp folder of its own, `shipdesk-import-…` in
 * its process's TMPDIR, made when the worker is started and removed with it (worker-client.ts `spawnIdle`). The
 * process is given a TMPDIR of its own, so a folder there is this process's worker, and no import is made.
 */
const workerFolders = (dir: string) => readdirSync(dir).filter((name) => name.startsWith('shipdesk-import-'));

describe('browser mode (npm run serve) with its UI', () => {
  it('has an import reading worker started before the first import', async () => {
    const data = tempDataDir();
    const web = join(data.dir, 'web');
    mkdirSync(web);
    writeFileSync(join(web, 'index.html'), '<!doctype html><title>ShipDesk</title>');
    const temp = join(data.dir, 'tmp');
    mkdirSync(temp);
    // tsx keeps its compile cache in TMPDIR: the process's own TMPDIR points at the usual one, so it starts as fast
    const tsxCache = `tsx-${process.getuid?.() ?? 0}`;
    if (existsSync(join(tmpdir(), tsxCache))) symlinkSync(join(tmpdir(), tsxCache), join(temp, tsxCache));

    const saved = process.env.TMPDIR;
    process.env.TMPDIR = temp; // the child's environment is copied when it is spawned
    let serve;
    try {
      serve = await startServeProcess(['--port', '0', '--data-dir', join(data.dir, 'data'), '--web-root', web]);
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
    }
    try {
      expect(serve.output()).toMatch(/Open http:\/\/127\.0\.0\.1:\d+\/#session=/);
      // the worker is started right after the link is printed; from source its bundle may still be building
      await vi.waitFor(() => expect(workerFolders(temp)).toHaveLength(1), { timeout: 30_000, interval: 100 });
    } finally {
      expect(await serve.stop('SIGTERM')).toBe(0);
      data.remove();
    }
  }, 120_000);
});
