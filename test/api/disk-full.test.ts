import { execFileSync } from 'node:child_process';
import { mkdtempSync, openSync, rmSync, rmdirSync, writeSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../shared/errors';
import type { Logger } from '../../electron/core/logger';
import { orderPayload } from '../helpers/payloads';
import { startTestServer, type TestServer } from '../helpers/test-server';

/** A small tmpfs as the data folder, so the disk can really fill up. Needs root (CI runs as root). */
function mountSmallDisk(): string | null {
  const dir = mkdtempSync(join(tmpdir(), 'shipdesk-full-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=48m', 'tmpfs', dir], { stdio: 'ignore' });
    return dir;
  } catch {
    rmdirSync(dir);
    console.log('disk-full test skipped: mounting a tmpfs is not permitted here (run as root to include it)');
    return null;
  }
}

const disk = mountSmallDisk();
const logged: string[] = [];
const log: Logger = {
  info: () => {},
  warn: (m) => logged.push(m),
  error: (m, e) => logged.push(`${m}: ${e instanceof Error ? e.message : String(e)}`),
  child: () => log,
};

/** Fills the disk with one file until the file system says no more. */
function fillDisk(file: string) {
  const fd = openSync(file, 'w');
  const chunk = Buffer.alloc(256 * 1024, 1);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    closeSync(fd);
  }
}

describe.skipIf(disk === null)('a full disk', () => {
  let server: TestServer;
  const filler = join(disk ?? '', 'filler.bin');
  beforeAll(async () => {
    server = await startTestServer({ dataDir: join(disk!, 'data'), log });
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    rmSync(filler, { force: true });
    execFileSync('umount', [disk!]);
    rmdirSync(disk!);
  });

  it('is said plainly (507), keeps answering reads, and is over by itself once there is space', async () => {
    const first = await server.call('POST', '/v1/orders', { body: orderPayload('FULL-0') });
    expect(first.status, first.text).toBe(200);

    fillDisk(filler);
    let refused: Awaited<ReturnType<TestServer['call']>> | undefined;
    for (let n = 1; n <= 300 && !refused; n++) {
      const res = await server.call('POST', '/v1/orders', { body: orderPayload(`FULL-${n}`, (o) => (o.order.comment = 'x'.repeat(900))) });
      if (res.status !== 200) refused = res;
    }
    expect(refused?.status, refused?.text).toBe(507);
    expect(refused?.json).toMatchObject({ code: ErrorCode.storageFull, message: 'Insufficient storage' });

    const read = await server.call('GET', '/v1/orders/' + first.json.orderId);
    expect(read.status).toBe(200);

    rmSync(filler);
    const after = await server.call('POST', '/v1/orders', { body: orderPayload('FULL-AFTER') });
    expect(after.status, after.text).toBe(200);
    expect(logged.join('\n')).not.toContain('cannot rollback');
  });
});
