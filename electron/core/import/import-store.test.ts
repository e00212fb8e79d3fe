import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDataDir } from '../../../test/helpers/test-app';
import { systemClock } from '../clock';
import { testEngines, twoCompanies, type TestStores } from '../store/test-engines';
import { defaultImportOptions } from './import-options';
import { createImportStore } from './import-store';

describe('an import\'s file kept in the data folder', () => {
  const [sqlite] = testEngines;
  let opened: TestStores | undefined;
  const data = tempDataDir();
  afterEach(async () => {
    await opened?.close();
    data.remove();
  });

  async function importStore() {
    opened = await sqlite.open();
    const { shop } = await twoCompanies(opened.stores);
    return { store: createImportStore({ imports: opened.stores.imports, clock: systemClock, options: defaultImportOptions, dataDir: data.dir }), ctx: { companyId: shop.id } };
  }
  const newImport = (bytes: Buffer) => ({ origin: 'api' as const, mode: 'async' as const, status: 'queued' as const, bytes });

  it('is written while other work goes on (not in one go on the main thread), whole, and under its own name only', async () => {
    const { store, ctx } = await importStore();
    const bytes = randomBytes(30 * 1024 * 1024);
    let turns = 0;
    const ticking = setInterval(() => turns++, 0);
    const { id: importId } = await store.create(ctx, newImport(bytes));
    clearInterval(ticking);
    expect(turns).toBeGreaterThan(1);
    const dir = path.join(data.dir, 'imports', String(ctx.companyId));
    expect(readdirSync(dir)).toEqual([`${importId}.xlsx`]);
    expect(readFileSync(path.join(dir, `${importId}.xlsx`)).equals(bytes)).toBe(true);
  });

  it('is found where its record says, and not at all once its file is forgotten', async () => {
    const { store, ctx } = await importStore();
    const bytes = randomBytes(1024);
    const created = await store.create(ctx, newImport(bytes));
    expect(readFileSync(store.sourceFile(created)!).equals(bytes)).toBe(true);
    // a file kept elsewhere (as a former version laid them out): the record's path, not one made up from the ids
    const elsewhere = path.join('imports', 'moved.xlsx');
    writeFileSync(path.join(data.dir, elsewhere), bytes);
    await opened!.stores.imports.setSourcePath(created.id, elsewhere);
    const record = await store.load(ctx, created.id);
    expect(store.sourceFile(record)).toBe(path.join(data.dir, elsewhere));
    await opened!.stores.imports.forgetFiles([created.id]);
    expect(store.sourceFile(await store.load(ctx, created.id))).toBeUndefined();
  });

  it('that cannot be written leaves no half-written file and no import behind', async () => {
    const { store, ctx } = await importStore();
    const { id: first } = await store.create(ctx, newImport(randomBytes(1024)));
    // the next import's name is taken by a folder with something in it: the renaming fails
    const dir = path.join(data.dir, 'imports', String(ctx.companyId));
    mkdirSync(path.join(dir, `${first + 1}.xlsx`));
    writeFileSync(path.join(dir, `${first + 1}.xlsx`, 'in-the-way'), 'x');
    await expect(store.create(ctx, newImport(randomBytes(1024)))).rejects.toThrow();
    expect(readdirSync(dir).sort()).toEqual([`${first}.xlsx`, `${first + 1}.xlsx`]);
    expect(existsSync(path.join(dir, `${first + 1}.xlsx.tmp`))).toBe(false);
    await expect(store.load(ctx, first + 1)).rejects.toMatchObject({ status: 404 });
  });
});
