import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createApp } from '../../electron/core/app';
import { silentLogger } from '../../electron/core/logger';
import { ordersWorkbook, sampleOrder } from '../fixtures/xlsx/orders-workbook';
import { tempDataDir } from '../helpers/test-app';

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
