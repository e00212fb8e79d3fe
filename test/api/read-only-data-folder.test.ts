import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DataFolderUnusableError } from '../../electron/core/store/database';
import { orderPayload } from '../helpers/payloads';
import { mountSmallDisk, unmountSmallDisk } from '../helpers/small-disk';
import { startTestServer } from '../helpers/test-server';

const disk = mountSmallDisk('read-only data folder test', 16);

/**
 * A data folder on a mount made read-only (a USB stick's write-protect switch): SQLite cannot even read a WAL
 * database where it cannot create the `-shm` beside it, so the app refuses to start with one sentence naming the
 * folder (serve prints it after "ShipDesk could not start: ", the desktop shell shows it in its start-error box),
 * and starts on the same data once the folder can be written again. Root only (a tmpfs), skipped with a line elsewhere.
 */
describe.skipIf(disk === null)('a read-only data folder at start', () => {
  it('refuses to start naming the folder, and starts with the data intact once it is writable', async () => {
    const dataDir = join(disk!, 'data');
    mkdirSync(dataDir);
    const at = { dataDir, databaseFile: join(dataDir, 'shipdesk.db') };
    try {
      const first = await startTestServer(at);
      const created = await first.call('POST', '/v1/orders', { body: orderPayload('RO-1') });
      expect(created.status, created.text).toBe(200);
      const token = first.tokenA;
      await first.close();

      execFileSync('mount', ['-o', 'remount,ro', disk!]);
      const refused = await startTestServer(at).then(
        async (server) => {
          await server.close();
          return null;
        },
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(DataFolderUnusableError);
      expect((refused as Error).message).toBe(
        `the data folder ${dataDir} cannot be written (EROFS: read-only, full or not permitted); make it writable (a USB stick's write-protect switch, the folder's permissions, free space) and start ShipDesk again`,
      );

      execFileSync('mount', ['-o', 'remount,rw', disk!]);
      const again = await startTestServer(at);
      try {
        const read = await again.call('GET', `/v1/orders/${created.json.orderId}`, { token });
        expect(read.status, read.text).toBe(200);
        const written = await again.call('POST', '/v1/orders', { body: orderPayload('RO-2'), token });
        expect(written.status, written.text).toBe(200);
      } finally {
        await again.close();
      }
    } finally {
      unmountSmallDisk(disk!);
    }
  }, 60_000);
});
