import { afterEach, describe, expect, it } from 'vitest';
import { newImport, testEngines, twoCompanies, type TestStores } from '../test-engines';

const settings = { columnSettings: { rowStart: 2 } } as never;

describe.each(testEngines)('the imports store ($name)', ({ open }) => {
  let opened: TestStores | undefined;
  afterEach(() => opened?.close());

  async function withShops() {
    opened = await open();
    return { stores: opened.stores, imports: opened.stores.imports, ...(await twoCompanies(opened.stores)) };
  }

  it('gives an import only to its company, and records its progress and the error it ended with', async () => {
    const { imports, shop, other } = await withShops();
    const id = await imports.createImport(newImport(shop.id, 10));
    expect(await imports.import(other.id, id)).toBeUndefined();
    await imports.updateImport(id, { status: 'failed', total: 5, done: 3, created: 2, failed: 1, error: { code: '500000', message: 'Import interrupted' }, finishedAt: 20 }, 20);
    expect(await imports.import(shop.id, id)).toMatchObject({
      id, companyId: shop.id, status: 'failed', fileName: 'orders.xlsx', fileSize: 100, total: 5, done: 3, created: 2, failed: 1,
      error: { code: '500000', message: 'Import interrupted' }, settings: null, errorsToFile: false, asDrafts: false, language: null, createdAt: 10, updatedAt: 20, finishedAt: 20,
    });
    expect(await imports.unfinishedImports()).toEqual([]);
  });

  it('lets one run take a staged file, once', async () => {
    const { imports, shop } = await withShops();
    const id = await imports.createImport(newImport(shop.id, 1, 'staged'));
    expect(await imports.takeStaged(id, { settings, errorsToFile: true, asDrafts: true, language: 'ru' }, 2)).toBe(true);
    expect(await imports.takeStaged(id, { settings, errorsToFile: false, asDrafts: false, language: 'en' }, 3)).toBe(false);
    expect(await imports.unfinishedImports()).toEqual([expect.objectContaining({ id, status: 'queued', settings, errorsToFile: true, asDrafts: true, language: 'ru' })]);
  });

  it('keeps the language of the window that started a run with its import', async () => {
    const { imports, shop } = await withShops();
    const id = await imports.createImport({ ...newImport(shop.id, 1, 'queued'), language: 'en' });
    expect(await imports.import(shop.id, id)).toMatchObject({ language: 'en' });
  });

  it('knows which files are kept, forgets them, and removes old imports with their rows', async () => {
    const { imports, shop, other } = await withShops();
    const old = await imports.createImport(newImport(shop.id, 1));
    const recent = await imports.createImport(newImport(shop.id, 50));
    const elsewhere = await imports.createImport(newImport(other.id, 1));
    for (const id of [old, recent, elsewhere]) await imports.setSourcePath(id, `imports/${id}.xlsx`);
    expect((await imports.keptFiles(shop.id)).map((k) => k.sourcePath)).toEqual([`imports/${old}.xlsx`, `imports/${recent}.xlsx`]);

    await imports.forgetFiles([elsewhere]);
    expect(await imports.keptFiles(other.id)).toEqual([]);
    expect(await imports.importsWithFilesBefore(10)).toEqual([{ id: old, sourcePath: `imports/${old}.xlsx` }]);

    expect(await imports.deleteImportsBefore(10)).toEqual([`imports/${old}.xlsx`]);
    expect(await imports.importById(old)).toBeUndefined();
    expect(await imports.importById(elsewhere)).toBeUndefined();
    expect(await imports.importById(recent)).toMatchObject({ sourcePath: `imports/${recent}.xlsx` });
  });

  it('gives the results and the failures in file order', async () => {
    const { stores, imports, shop } = await withShops();
    const id = await imports.createImport(newImport(shop.id));
    await stores.drafts.writeImportedDrafts(
      shop.id,
      id,
      [
        { seq: 1, row: 2, lastRow: 2, clientNumber: 'A-1', error: '{"message":"no phone"}' },
        { seq: 2, row: 3, lastRow: 3, clientNumber: 'A-2', json: '{"order":{"clientNumber":"A-2"}}' },
      ],
      30,
      () => 'd-1',
    );
    expect(await imports.resultRows(id, 0, 10)).toEqual([
      { row: 2, clientNumber: 'A-1', orderId: null, providerNumber: null, statusKey: null, draftId: null, createdAt: null, failure: { message: 'no phone' } },
      { row: 3, clientNumber: 'A-2', orderId: null, providerNumber: null, statusKey: null, draftId: 'd-1', createdAt: 30, failure: null },
    ]);
    expect(await imports.resultRows(id, 1, 10)).toHaveLength(1);
    expect(await imports.failedRows(id)).toEqual([{ seq: 1, row: 2, lastRow: 2, clientNumber: 'A-1', failure: { message: 'no phone' } }]);
    expect(await imports.counts(id)).toEqual({ recorded: 2, created: 1, firstOrderId: null, lastOrderId: null });
  });
});
