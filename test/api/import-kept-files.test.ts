import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createApp } from '../../electron/core/app';
import { silentLogger } from '../../electron/core/logger';
import { ordersWorkbook, sampleOrder, uploadBody } from '../fixtures/xlsx/orders-workbook';
import { tempDataDir } from '../helpers/test-app';
import { startTestServer, type TestServer } from '../helpers/test-server';

// An import's file lives in the data folder (imports/<company>/<import>.xlsx), not in the database.

describe('the files of imports', () => {
  const data = tempDataDir();
  afterAll(() => data.remove());

  it('a file a former version kept in the database is moved to the data folder when the app starts', async () => {
    let app = await createApp({ dataDir: data.dir, log: silentLogger });
    const ctx = await app.desktopContext();
    const { buffer } = await ordersWorkbook([sampleOrder('KEPT-1')], { itemsNewRow: true });
    const now = Date.now();
    const { id } = await app.db
      .insertInto('imports')
      .values({ company_id: ctx.companyId, origin: 'desktop', mode: 'async', status: 'staged', file_name: 'old.xlsx', file_size: buffer.length, source: buffer, settings: null, errors_to_file: 0, total: 0, done: 0, created: 0, failed: 0, error: null, errors_file: null, created_at: now, updated_at: now, finished_at: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    await app.close();

    app = await createApp({ dataDir: data.dir, log: silentLogger });
    const row = await app.db.selectFrom('imports').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.source).toBeNull();
    expect(row.source_path).toBe(path.join('imports', String(ctx.companyId), `${id}.xlsx`));
    expect(readFileSync(path.join(data.dir, row.source_path!)).equals(buffer)).toBe(true);
    await app.close();
  });

  it('a company keeps at most its quota of files: finished imports make room, staged ones are kept and refuse a file past it', async () => {
    const { buffer } = await ordersWorkbook([sampleOrder('Q-1')], { itemsNewRow: true });
    const dir = tempDataDir();
    const app = await createApp({ dataDir: dir.dir, log: silentLogger, imports: { maxKeptSourceBytesPerCompany: Math.floor(buffer.length * 1.5) } });
    try {
      const ctx = await app.desktopContext();
      const preview = () => app.dispatch('import.preview', ctx, { file: { base64: buffer.toString('base64'), name: 'q.xlsx' }, rows: 3 });
      const first = await preview();
      expect(first.ok).toBe(true);
      const refused = await preview(); // the first is staged (not finished): no room for a second
      expect(refused).toMatchObject({ ok: false, error: { code: '040000', message: 'Too many files kept' } });
      const firstId = (first as { ok: true; value: { importId: number } }).value.importId;
      const firstFile = path.join(dir.dir, 'imports', String(ctx.companyId), `${firstId}.xlsx`);
      expect(existsSync(firstFile)).toBe(true);
      // once it has run, its file makes room for the next
      await app.db.updateTable('imports').set({ status: 'done' }).where('id', '=', firstId).execute();
      expect((await preview()).ok).toBe(true);
      expect(existsSync(firstFile)).toBe(false);
      expect((await app.db.selectFrom('imports').select('source_path').where('id', '=', firstId).executeTakeFirstOrThrow()).source_path).toBeNull();
    } finally {
      await app.close();
      dir.remove();
    }
  });
});

describe('the errors file of an import', () => {
  const failing = () => ordersWorkbook([sampleOrder('OK-1'), sampleOrder('BAD-1', (o) => (o.fields['recipient.phone'] = 'не скажу'))], { itemsNewRow: true });

  /** A sync upload with errorsToFile by the shop itself; the import's row and where its errors file lives. */
  async function uploadWithErrors(server: TestServer) {
    const { buffer, columnMap } = await failing();
    const res = await server.call('POST', '/orders/upload', { token: server.shopToken, body: uploadBody(buffer, columnMap, { itemsNewRow: true, errorsToFile: true }) });
    expect(res.status, res.text).toBe(200);
    const row = await server.app.db.selectFrom('imports').selectAll().orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();
    const file = path.join(server.dataDir, 'imports', String(row.company_id), `${row.id}.errors.xlsx`);
    return { returned: Buffer.from(res.json.base64, 'base64'), row, file, sourceBytes: buffer.length };
  }

  it('lives in the data folder beside its source, not in the database, and is served from there', async () => {
    const server = await startTestServer();
    try {
      const { returned, row, file } = await uploadWithErrors(server);
      expect(row.errors_file).toBeNull();
      expect(readFileSync(file).equals(returned)).toBe(true);
      const again = await server.call('GET', `/orders/upload/${row.id}`, { token: server.shopToken });
      expect(Buffer.from(again.json.base64, 'base64').equals(returned)).toBe(true);
      const wizard = await server.app.dispatch('import.errorsFile', server.shop, { importId: row.id });
      expect(wizard.ok).toBe(true);
      const { base64 } = (wizard as { ok: true; value: { base64: string } }).value;
      expect(Buffer.from(base64, 'base64').equals(returned)).toBe(true);
    } finally {
      await server.close();
    }
  });

  it('counts in the company quota and goes with its import', async () => {
    const probe = await startTestServer();
    const { returned, sourceBytes } = await uploadWithErrors(probe);
    await probe.close();
    // room for two sources, not for two sources and the first one's errors file
    const server = await startTestServer({ imports: { maxKeptSourceBytesPerCompany: 2 * sourceBytes + Math.floor(returned.length / 2) } });
    try {
      const first = await uploadWithErrors(server);
      expect(existsSync(first.file)).toBe(true);
      const second = await uploadWithErrors(server); // the first (finished) import's files make room for it
      expect(existsSync(first.file)).toBe(false);
      expect(existsSync(path.join(server.dataDir, first.row.source_path!))).toBe(false);
      expect((await server.call('GET', `/orders/upload/${first.row.id}`, { token: server.shopToken })).json.base64).toBeNull();
      expect(existsSync(second.file)).toBe(true);
      // and once its import is forgotten (past the retention), the file is gone too
      server.clock.advance(31 * 86_400_000);
      await uploadWithErrors(server);
      expect(existsSync(second.file)).toBe(false);
      expect(await server.app.db.selectFrom('imports').select('id').where('id', '=', second.row.id).executeTakeFirst()).toBeUndefined();
    } finally {
      await server.close();
    }
  });
});
