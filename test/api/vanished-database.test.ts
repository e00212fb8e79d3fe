import { copyFileSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { ErrorCode } from '../../shared/errors';
import { orderPayload } from '../helpers/payloads';
import { startTestServer, type TestServer } from '../helpers/test-server';

/**
 * The database file taken away under the running app: its folder renamed or removed, or another file put at its path.
 * SQLite would go on writing into the unlinked file and lose it all at exit; instead each write is refused with a 507
 * that says what happened, reads answer from what is open, and writes go on once the same file is back (never another).
 */
describe('the database file gone under the running app', () => {
  const root = mkdtempSync(join(tmpdir(), 'shipdesk-vanish-'));
  const dataDir = join(root, 'data');
  const file = join(dataDir, 'shipdesk.db');
  let server: TestServer | undefined;
  afterAll(async () => {
    await server?.close();
    rmSync(root, { recursive: true, force: true });
  });

  const create = (n: number) => server!.call('POST', '/v1/orders', { body: orderPayload(`GONE-${n}`) });
  let n = 0;
  /** The next write's answer, which must be `status`: the file is looked at before each write, not only every second. */
  const writeAnswered = async (status: number) => {
    const res = await create(++n);
    expect(res.status, res.text).toBe(status);
    return res;
  };

  it('refuses writes saying so, keeps reading, goes on when the folder is back, and never takes another file', async () => {
    mkdirSync(dataDir);
    server = await startTestServer({ dataDir, databaseFile: file });
    const first = await create(++n);
    expect(first.status, first.text).toBe(200);

    renameSync(dataDir, join(root, 'moved'));
    const refused = await writeAnswered(507); // at once: a write in the watch's first second went into the moved file, answered 200
    const moved = new Database(join(root, 'moved', 'shipdesk.db'), { readonly: true });
    expect(moved.prepare("SELECT count(*) FROM orders WHERE client_number LIKE 'GONE-%'").pluck().get()).toBe(1); // only the first
    moved.close();
    expect(refused.json).toEqual({
      code: ErrorCode.storageFull,
      message: 'Insufficient storage',
      description: `The database file ${file} is gone or was replaced (its data folder deleted, moved or renamed); nothing was saved. Lists still open from what is loaded. Put the folder back where it was and ShipDesk carries on; otherwise restart it (it then opens whatever is at that path, a new empty database if nothing is)`,
    });
    const read = await server.call('GET', `/v1/orders/${first.json.orderId}`);
    expect(read.status, read.text).toBe(200);

    renameSync(join(root, 'moved'), dataDir);
    const after = await writeAnswered(200);
    expect((await server.call('GET', `/v1/orders/${after.json.orderId}`)).status).toBe(200);

    // Another file at the path (a copy of the same database): still refused, only a restart would open it.
    copyFileSync(file, join(root, 'copy.db'));
    rmSync(dataDir, { recursive: true });
    expect((await writeAnswered(507)).json).toEqual(refused.json);
    mkdirSync(dataDir);
    copyFileSync(join(root, 'copy.db'), file);
    const stillRefused = await create(++n);
    expect(stillRefused.status, stillRefused.text).toBe(507);
    expect((await server.call('GET', `/v1/orders/${first.json.orderId}`)).status).toBe(200);
  }, 60_000);
});
