import { rmSync } from 'node:fs';
import path from 'node:path';
import { ordersWorkbook, sampleOrder, uploadBody } from '../fixtures/xlsx/orders-workbook';
import { tempDataDir, testDatabase } from '../helpers/test-app';
import { startTestServer, type TestServer } from '../helpers/test-server';

/**
 * What the app does at start with an import the last run left under way (import-recovery.ts), for the paths the
 * crash test (upload-crash.test.ts, `creating` taken up again) does not take: the state a crash leaves is written into
 * the database of a real import, then the app starts again on the same data folder and database.
 */
describe('an import left under way, at the next start', () => {
  let data: ReturnType<typeof tempDataDir>;
  let database: Awaited<ReturnType<typeof testDatabase>>;
  let server: TestServer | undefined;
  const start = async () => (server = await startTestServer({ dataDir: data.dir, ...(database.url && { database: database.url }) }));
  beforeEach(async () => {
    data = tempDataDir('shipdesk-recovery-');
    database = await testDatabase();
    await start();
  });
  afterEach(async () => {
    await server?.close();
    await database.drop();
    data.remove();
  });

  /** A finished upload of two orders, then set back to how a crash in `status` would have left it. */
  async function leftAs(status: 'registering' | 'creating', more: { settings?: (settings: Record<string, unknown>) => void } = {}) {
    const { buffer, columnMap } = await ordersWorkbook([sampleOrder('REC-1'), sampleOrder('REC-2')], { itemsNewRow: true });
    const uploaded = await server!.call('POST', '/orders/upload', { body: uploadBody(buffer, columnMap, { itemsNewRow: true }) });
    expect(uploaded.status, uploaded.text).toBe(200);
    const row = await server!.app.db.selectFrom('imports').select(['id', 'settings', 'source_path']).orderBy('id', 'desc').executeTakeFirstOrThrow();
    const settings = JSON.parse(row.settings!) as Record<string, unknown>;
    more.settings?.(settings);
    await server!.app.db
      .updateTable('imports')
      .set({ status, done: 0, created: 0, failed: 0, finished_at: null, settings: JSON.stringify(settings) })
      .where('id', '=', row.id)
      .execute();
    await server!.close();
    server = undefined;
    return { uploadId: row.id, sourcePath: path.join(data.dir, row.source_path!) };
  }

  const stateOf = async (uploadId: number) => (await server!.call('GET', `/orders/upload/${uploadId}`)).json;

  it('registering (every order written, the wait for the numbers cut short): done, with its counts', async () => {
    const { uploadId } = await leftAs('registering');
    await start();
    expect(await stateOf(uploadId)).toMatchObject({ status: 'done', done: 2, total: 2, created: 2, failed: 0, error: null });
    const row = await server!.app.db.selectFrom('imports').select('finished_at').where('id', '=', uploadId).executeTakeFirstOrThrow();
    expect(row.finished_at).not.toBeNull();
  });

  it('creating, its file no longer kept: failed, saying so and how many orders it had created', async () => {
    const { uploadId, sourcePath } = await leftAs('creating');
    rmSync(sourcePath);
    await start();
    const state = await stateOf(uploadId);
    expect(state).toMatchObject({ status: 'failed', done: 2, created: 2, failed: 0, error: { message: 'Import interrupted' } });
    expect(state.error.description).toMatch(/could not be taken up again: its file is no longer kept\. 2 orders were created before/);
    expect(state.resultItems.map((item: { clientNumber: string }) => item.clientNumber)).toEqual(['REC-1', 'REC-2']);
  });

  it('creating, its settings no longer valid (the delivery service is gone): failed, saying why', async () => {
    const { uploadId } = await leftAs('creating', { settings: (settings) => void (settings.providerKey = 'gone-service') });
    await start();
    const state = await stateOf(uploadId);
    expect(state).toMatchObject({ status: 'failed', done: 2, created: 2, error: { message: 'Import interrupted' } });
    expect(state.error.description).toMatch(/its settings are no longer valid \(.*unknown delivery service gone-service.*\)/);
  });
});
