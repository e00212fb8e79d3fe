import { afterEach, describe, expect, it } from 'vitest';
import { newImport, testEngines, twoCompanies, type TestStores } from '../test-engines';

const form = (clientNumber: string, contactName = 'Иван Петров') => ({ order: { clientNumber, providerKey: 'sandbox' }, recipient: { contactName } });
const settings = { columnSettings: { rowStart: 2 } } as never;

describe.each(testEngines)('the drafts store ($name)', ({ open }) => {
  let opened: TestStores | undefined;
  afterEach(() => opened?.close());

  async function withShops() {
    opened = await open();
    return { drafts: opened.stores.drafts, ...(await twoCompanies(opened.stores)) };
  }

  it('keeps a draft exactly as typed, lists it by what it says, and replaces it on the next save', async () => {
    const { drafts, shop, other } = await withShops();
    await drafts.saveDraft(shop.id, { id: 'd-1', data: form('A-1'), at: 10 });
    await drafts.saveDraft(shop.id, { id: 'd-2', data: { order: { clientNumber: 42 }, recipient: { contactName: '   ' } }, at: 11 });
    await drafts.saveDraft(shop.id, { id: 'd-1', data: form('A-1b'), at: 12 });

    expect(await drafts.draft(shop.id, 'd-1')).toEqual({ id: 'd-1', data: form('A-1b'), createdAt: 10, updatedAt: 12 });
    expect(await drafts.drafts(shop.id, { limit: 10, offset: 0 })).toEqual({
      total: 2,
      rows: [
        { id: 'd-1', clientNumber: 'A-1b', recipient: 'Иван Петров', providerKey: 'sandbox', createdAt: 10, updatedAt: 12 },
        { id: 'd-2', clientNumber: '42', recipient: null, providerKey: null, createdAt: 11, updatedAt: 11 },
      ],
    });
    expect(await drafts.draft(other.id, 'd-1')).toBeUndefined();
    expect(await drafts.deleteDraft(other.id, 'd-1')).toBe(false);
    expect(await drafts.deleteDraft(shop.id, 'd-1')).toBe(true);
    expect(await drafts.deleteDraft(shop.id, 'd-1')).toBe(false);
  });

  it('writes an import batch as drafts with a record of every item, and finds drafts by client number', async () => {
    const { drafts, shop, other } = await withShops();
    let n = 0;
    const importId = await opened!.stores.imports.createImport(newImport(shop.id));
    const made = await drafts.writeImportedDrafts(
      shop.id,
      importId,
      [
        { seq: 1, row: 2, lastRow: 2, clientNumber: 'I-1', json: JSON.stringify(form('I-1')) },
        { seq: 2, row: 3, lastRow: 4, clientNumber: 'I-2', error: '{"why":"no phone"}' },
      ],
      50,
      () => `d-${++n}`,
    );
    expect([...made]).toEqual([[1, 'd-1']]);
    expect(await opened!.stores.imports.counts(importId)).toEqual({ recorded: 2, created: 1, firstOrderId: null, lastOrderId: null });
    expect(await drafts.draft(shop.id, 'd-1')).toMatchObject({ data: form('I-1'), createdAt: 50 });
    expect([...(await drafts.draftsByClientNumber(shop.id, ['I-1', 'I-2']))]).toEqual([['I-1', 'd-1']]);
    expect((await drafts.draftsByClientNumber(other.id, ['I-1'])).size).toBe(0);
  });

  it('saves a preset under its name, replacing the one of the same name and keeping its id', async () => {
    const { drafts, shop, other } = await withShops();
    const first = await drafts.savePreset(shop.id, { name: 'Ozon', settings, headers: [], at: 1 });
    const second = await drafts.savePreset(shop.id, { name: 'WB', settings, headers: [], at: 2 });
    const again = await drafts.savePreset(shop.id, { name: 'Ozon', settings, headers: [], at: 3 });
    expect(again).toMatchObject({ id: first.id, createdAt: 1, updatedAt: 3, settings });
    expect((await drafts.presets(shop.id)).map((p) => p.name)).toEqual(['Ozon', 'WB']);
    expect(await drafts.presets(other.id)).toEqual([]);
    expect(await drafts.deletePreset(other.id, second.id)).toBe(false);
    expect(await drafts.deletePreset(shop.id, second.id)).toBe(true);
  });
});
