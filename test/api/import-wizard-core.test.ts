import ExcelJS from 'exceljs';
import { ordersWorkbook, sampleOrder, senderDefaults } from '../fixtures/xlsx/orders-workbook';
import { createTestApp } from '../helpers/test-app';
import { ownerOf } from '../../electron/core/auth/caller';

// What the import wizard adds to the core: importing into drafts (to check before sending), saved
// column-mapping presets, the field table the mapping step shows, and an errors file in the window's language
// (carried with import.run, kept with the import) rather than the core machine's.

type TestApp = Awaited<ReturnType<typeof createTestApp>>;
let t: TestApp;
afterEach(async () => {
  await t?.close();
});

async function call<T = any>(name: string, input: unknown, ctx = t.shop): Promise<T> {
  const result = await t.app.dispatch(name, ctx, input);
  if (!result.ok) throw new Error(`${name}: ${JSON.stringify(result.error)}`);
  return result.value as T;
}

const count = async (table: 'orders' | 'drafts') => Number((await t.app.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

const settings = (columnMap: Record<string, string>) => ({
  providerKey: 'sandbox-express',
  columnSettings: { dateFormat: 'd.m.Y', timeFormat: 'H:i', nameFormat: false, itemsNewRow: true, rowStart: 3 },
  columnMap,
  defaultData: senderDefaults,
});

async function finished(importId: number) {
  for (let i = 0; i < 400; i++) {
    const state = await call('import.results', { importId });
    if (['done', 'failed', 'canceled'].includes(state.status)) return state;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('the import did not finish');
}

describe('importing into drafts', () => {
  it('keeps the valid orders as drafts to check, creates no order, and reports the bad rows as usual', async () => {
    t = await createTestApp();
    const { buffer, columnMap } = await ordersWorkbook(
      [sampleOrder('D-1'), sampleOrder('D-2', (o) => (o.fields['order.weight'] = 'много')), sampleOrder('D-3')],
      { itemsNewRow: true },
    );
    const { importId } = await call('import.preview', { file: { base64: buffer.toString('base64'), name: 'shop.xlsx' } });
    await call('import.run', { importId, settings: settings(columnMap), target: 'drafts' });
    const state = await finished(importId);
    expect(state).toMatchObject({ status: 'done', total: 3, created: 2, failed: 1 });
    expect(state.resultItems).toEqual([
      { clientNumber: 'D-1', row: 3, draftId: expect.stringMatching(/^d-/), created: expect.any(String) },
      expect.objectContaining({ clientNumber: 'D-2', row: 5, code: '040002' }),
      { clientNumber: 'D-3', row: 7, draftId: expect.stringMatching(/^d-/), created: expect.any(String) },
    ]);
    expect(await count('orders')).toBe(0);

    // the drafts page lists them, and submitting one creates its order from the imported data
    const list = await call('drafts.list', { limit: 10, offset: 0 });
    expect(list.rows.map((r: any) => r.clientNumber).sort()).toEqual(['D-1', 'D-3']);
    const draft = await call('drafts.get', { id: state.resultItems[0].draftId });
    expect(draft.data).toMatchObject({ order: { clientNumber: 'D-1', weight: 1200 }, recipient: { contactName: 'Смирнова Анна Петровна' } });
    const submitted = await call('drafts.submit', { ids: [state.resultItems[0].draftId] });
    expect(submitted).toMatchObject({ created: 1, failed: 0 });
    expect(await count('orders')).toBe(1);

    // the errors file marks the failed row as for an import into orders
    const file = await call('import.errorsFile', { importId });
    expect(file.base64).not.toBeNull();
  });

  it('a second import of the same file reports the rows already drafted (or sent) as duplicates', async () => {
    t = await createTestApp();
    const { buffer, columnMap } = await ordersWorkbook([sampleOrder('R-1'), sampleOrder('R-2')], { itemsNewRow: true });
    const { importId } = await call('import.preview', { file: { base64: buffer.toString('base64') } });
    await call('import.run', { importId, settings: settings(columnMap), target: 'drafts' });
    const first = await finished(importId);
    await call('drafts.submit', { ids: [first.resultItems[1].draftId] }); // R-2 is an order now

    const again = await call('import.run', { importId, settings: settings(columnMap), target: 'drafts' });
    const second = await finished(again.uploadId);
    expect(second).toMatchObject({ created: 0, failed: 2 });
    expect(second.resultItems[0].errors[0]).toMatchObject({ field: 'order.clientNumber', message: expect.stringMatching(/^a draft with clientNumber R-1 already exists/) });
    expect(second.resultItems[1].errors[0]).toMatchObject({ field: 'order.clientNumber', message: expect.stringMatching(/^an order with clientNumber R-2 already exists/) });
    expect(await count('drafts')).toBe(1);
    expect(await count('orders')).toBe(1);
  });

  it('a canceled import into drafts keeps the drafts made before it and reports the rest as not imported', async () => {
    t = await createTestApp({ imports: { batchSize: 3 } });
    const { buffer, columnMap } = await ordersWorkbook(Array.from({ length: 40 }, (_, i) => sampleOrder(`C-${i + 1}`)), { itemsNewRow: true });
    const { importId } = await call('import.preview', { file: { base64: buffer.toString('base64') } });
    let cancel: Promise<unknown> | undefined;
    t.app.events.subscribe((e) => {
      if (e.type === 'import.progress' && e.status === 'creating' && (e.done as number) > 0 && !cancel) cancel = call('import.cancel', { importId });
    });
    await call('import.run', { importId, settings: settings(columnMap), target: 'drafts' });
    await finished(importId);
    await cancel;
    const state = await call('import.results', { importId });
    expect(state.status).toBe('canceled');
    const drafted = state.resultItems.filter((i: any) => i.draftId);
    const skipped = state.resultItems.filter((i: any) => i.message === 'Not imported');
    expect(drafted.length).toBeGreaterThan(0);
    expect(drafted.length + skipped.length).toBe(40);
    expect(await count('drafts')).toBe(drafted.length);
    expect(await count('orders')).toBe(0);
  });

  it('an import into orders stays the default', async () => {
    t = await createTestApp();
    const { buffer, columnMap } = await ordersWorkbook([sampleOrder('O-1')], { itemsNewRow: true });
    const { importId } = await call('import.preview', { file: { base64: buffer.toString('base64') } });
    await call('import.run', { importId, settings: settings(columnMap) });
    const state = await finished(importId);
    expect(state.resultItems[0]).toMatchObject({ clientNumber: 'O-1', orderId: expect.any(Number) });
    expect(await count('drafts')).toBe(0);
    expect(await count('orders')).toBe(1);
  });
});

describe('column-mapping presets', () => {
  const headers = [
    { column: 'A', title: 'Номер заказа' },
    { column: 'B', title: 'Вес заказа, г' },
  ];

  it('are saved under a name, listed last saved first, replaced by name and deleted', async () => {
    t = await createTestApp();
    const first = await call('import.presets.save', { name: 'Shop export', settings: settings({ 'order.clientNumber': 'A' }), headers });
    expect(first).toMatchObject({ id: expect.any(Number), name: 'Shop export', headers, settings: { providerKey: 'sandbox-express', columnMap: { 'order.clientNumber': 'A' } } });
    t.clock.advance(1000);
    const second = await call('import.presets.save', { name: 'CRM', settings: settings({ 'order.clientNumber': 'B' }), headers });
    expect((await call('import.presets.list', {})).map((p: any) => p.name)).toEqual(['CRM', 'Shop export']);

    const replaced = await call('import.presets.save', { name: 'Shop export', settings: settings({ 'order.clientNumber': 'C' }), headers });
    expect(replaced.id).toBe(first.id);
    const list = await call('import.presets.list', {});
    expect(list).toHaveLength(2);
    expect(list.find((p: any) => p.name === 'Shop export').settings.columnMap).toEqual({ 'order.clientNumber': 'C' });

    await call('import.presets.delete', { id: second.id });
    expect((await call('import.presets.list', {})).map((p: any) => p.name)).toEqual(['Shop export']);
    expect(await t.app.dispatch('import.presets.delete', t.shop, { id: second.id })).toMatchObject({ ok: false, error: { code: '040016' } });
  });

  it('belong to their company, and bad input is refused with the field named', async () => {
    t = await createTestApp();
    const mine = await call('import.presets.save', { name: 'Mine', settings: settings({ 'order.clientNumber': 'A' }), headers });
    const other = ownerOf((await t.app.services.companies.ensureWithToken('other-company-token', 'Other')).companyId);
    expect(await call('import.presets.list', {}, other)).toEqual([]);
    expect(await t.app.dispatch('import.presets.delete', other, { id: mine.id })).toMatchObject({ ok: false, error: { code: '040016' } });
    const bad = await t.app.dispatch('import.presets.save', t.shop, { name: ' ', settings: settings({}), headers: [{ column: 'a1', title: 'x' }] });
    expect(bad).toMatchObject({ ok: false, error: { code: '040002' } });
    expect((bad as any).error.errors.map((e: any) => e.field).sort()).toEqual(['headers.0.column', 'name']);
  });
});

describe('the field table of the mapping step', () => {
  it('lists every upload key with what the wizard asks for: only what has no default is required', async () => {
    t = await createTestApp();
    const fields = await call('import.fields', {});
    const byKey = Object.fromEntries(fields.map((f: any) => [f.key, f]));
    expect(byKey['order.clientNumber']).toEqual({ key: 'order.clientNumber', level: 'order', kind: 'text', required: true });
    expect(byKey['recipient.city']).toMatchObject({ required: 'address' });
    expect(byKey['order.comment']).toMatchObject({ required: false });
    // filled as the order form fills them, or left out as the form leaves them
    expect(byKey['item.quantity']).toMatchObject({ level: 'item', kind: 'number', required: false, filledBy: 'one' });
    expect(byKey['order.deliveryType']).toMatchObject({ required: false, filledBy: 'tariff' });
    expect(byKey['cost.assessedCost']).toMatchObject({ required: false, filledBy: 'items' });
    expect(byKey['place.length']).toMatchObject({ required: false });
    expect(byKey['item.weight']).toMatchObject({ required: false });
    // the sender comes from the default sender profile once there is one
    expect(byKey['sender.phone']).toMatchObject({ required: true });
    await call('senderProfiles.create', { name: 'Склад', sender: { contactName: 'Склад', phone: '+74951234567', countryCode: 'RU', city: 'Москва', street: 'ул. Ленина', house: '1' } });
    const withProfile = Object.fromEntries((await call('import.fields', {})).map((f: any) => [f.key, f]));
    expect(withProfile['sender.phone']).toMatchObject({ required: false, filledBy: 'senderProfile' });
    expect(Object.values(withProfile).filter((f: any) => f.required !== false).map((f: any) => f.key)).toEqual([
      'order.clientNumber', 'order.tariffId', 'cost.codCost', 'recipient.phone', 'recipient.contactName', 'recipient.countryCode', 'recipient.region',
      'recipient.city', 'recipient.street', 'recipient.house', 'item.description',
    ]);
  });
});

describe('starting an import', () => {
  it('asked twice at once (a double click), the staged file runs once as itself and once as a new import, never the same import twice', async () => {
    t = await createTestApp();
    const { buffer, columnMap } = await ordersWorkbook([sampleOrder('TWICE-1'), sampleOrder('TWICE-2')], { itemsNewRow: true });
    const { importId } = await call('import.preview', { file: { base64: buffer.toString('base64'), name: 'shop.xlsx' } });
    const [a, b] = await Promise.all([
      call('import.run', { importId, settings: settings(columnMap) }),
      call('import.run', { importId, settings: settings(columnMap) }),
    ]);
    expect([a.uploadId, b.uploadId]).toContain(importId);
    expect(a.uploadId).not.toBe(b.uploadId);
    const states = [await finished(a.uploadId), await finished(b.uploadId)];
    // One run creates the two orders; the other finds them and reports duplicates, so nothing is created twice.
    expect(states.map((s) => s.created).sort()).toEqual([0, 2]);
    expect(await count('orders')).toBe(2);
  });
});

describe('the wizard\'s settings', () => {
  it('refuse an unknown delivery service as the upload does, before anything is created', async () => {
    t = await createTestApp();
    const { buffer, columnMap } = await ordersWorkbook([sampleOrder('NOPE-1')], { itemsNewRow: true });
    const { importId } = await call('import.preview', { file: { base64: buffer.toString('base64'), name: 'shop.xlsx' } });
    for (const name of ['import.dryRun', 'import.run']) {
      const refused = await t.app.dispatch(name, t.shop, { importId, settings: { ...settings(columnMap), providerKey: 'nope' } });
      expect(refused).toMatchObject({ ok: false, error: { code: '040002', errors: [{ field: 'providerKey', message: 'unknown delivery service nope' }] } });
    }
    expect(await count('orders')).toBe(0);
  });
});

describe('the check knows what the delivery service will refuse', () => {
  it('a city the service does not reach at the door and a parcel over the tariff\'s weight are "not ready", with the reason; the import leaves them out', async () => {
    t = await createTestApp();
    const { buffer, columnMap } = await ordersWorkbook(
      [
        sampleOrder('REACH-1'),
        sampleOrder('REACH-2', (o) => Object.assign(o.fields, { 'recipient.city': 'Омск', 'recipient.region': 'Омская область' })),
        sampleOrder('REACH-3', (o) => Object.assign(o.fields, { 'order.weight': 60_000, 'place.weight': 60_000 })),
      ],
      { itemsNewRow: true },
    );
    const { importId } = await call('import.preview', { file: { base64: buffer.toString('base64'), name: 'shop.xlsx' } });
    const dry = await call('import.dryRun', { importId, settings: settings(columnMap) });
    expect({ orders: dry.orders, valid: dry.valid, failed: dry.failed }).toEqual({ orders: 3, valid: 1, failed: 2 });
    const reasons = Object.fromEntries(dry.resultItems.map((i: any) => [i.clientNumber, i.errors.map((e: any) => `${e.field}: ${e.message}`)]));
    expect(reasons['REACH-2']).toEqual([expect.stringMatching(/^recipient\.city: sandbox-express does not deliver to the door in Омск/)]);
    expect(reasons['REACH-3']).toEqual([expect.stringMatching(/^order\.weight: 60000 g is over the limit of tariff 103 \(50000 g\)/)]);

    const run = await call('import.run', { importId, settings: settings(columnMap) });
    const state = await finished(run.uploadId);
    expect({ created: state.created, failed: state.failed }).toEqual({ created: 1, failed: 2 });
    expect(await count('orders')).toBe(1);
  });
});

/** Runs a two-order workbook whose second order has the weight "много", from a window speaking `language`. */
async function runFrom(language: 'ru' | 'en' | undefined) {
  const { buffer, columnMap } = await ordersWorkbook([sampleOrder('L-1'), sampleOrder('L-2', (o) => (o.fields['order.weight'] = 'много'))], { itemsNewRow: true });
  const { importId } = await call('import.preview', { file: { base64: buffer.toString('base64'), name: 'shop.xlsx' } });
  const { uploadId } = await call('import.run', { importId, settings: settings(columnMap), ...(language && { language }) });
  expect(await finished(uploadId)).toMatchObject({ status: 'done', created: 1, failed: 1 });
  return uploadId as number;
}

/** The errors file as the window gets it: its name, and the errors column's title and its cells' texts. */
async function errorsFile(importId: number, language?: 'ru' | 'en') {
  const file = await call<{ fileName: string; base64: string }>('import.errorsFile', { importId, ...(language && { language }) });
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(Buffer.from(file.base64, 'base64') as never);
  const sheet = workbook.worksheets[0];
  const header = sheet.getRow(2);
  let column = 0;
  header.eachCell((cell, at) => {
    if (column === 0 && /errors|ошибки/i.test(String(cell.value))) column = at;
  });
  expect(column, 'the errors column').toBeGreaterThan(0);
  const messages: string[] = [];
  sheet.eachRow((row, at) => {
    const text = at > 2 ? String(row.getCell(column).value ?? '') : '';
    if (text) messages.push(text);
  });
  return { fileName: file.fileName, title: String(header.getCell(column).value), messages };
}

describe('the import\'s errors file speaks the window\'s language', () => {
  it('a run from a Russian window writes Russian, whatever the app\'s language setting, and keeps it for later', async () => {
    t = await createTestApp();
    await call('settings.update', { preferences: { language: 'en' } });
    const importId = await runFrom('ru');
    const later = await errorsFile(importId); // asked without a language: the run's window's
    expect(later.fileName).toBe('shop — ошибки.xlsx');
    expect(later.title).toBe('Ошибки импорта');
    expect(later.messages.join('\n')).toMatch(/Введите число/);
    expect(later.messages.join('\n')).not.toMatch(/must be a number/);
  });

  it('a run from an English window writes English though the app is set to Russian', async () => {
    t = await createTestApp();
    await call('settings.update', { preferences: { language: 'ru' } });
    const importId = await runFrom('en');
    const file = await errorsFile(importId);
    expect(file.fileName).toBe('shop — errors.xlsx');
    expect(file.title).toBe('Import errors');
    expect(file.messages.join('\n')).toMatch(/Enter a number/);
    expect(file.messages.join('\n').replace('“много”', '')).not.toMatch(/[а-яё]/i); // the cell's own text is quoted as it is
  });

  it('without a window language (the interface\'s callers) the app\'s setting decides, as before', async () => {
    t = await createTestApp();
    await call('settings.update', { preferences: { language: 'ru' } });
    const importId = await runFrom(undefined);
    expect((await errorsFile(importId)).title).toBe('Ошибки импорта');
  });

  it('refuses a language it does not speak, with the field named', async () => {
    t = await createTestApp();
    const result = await t.app.dispatch('import.errorsFile', t.shop, { importId: 1, language: 'de' });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatchObject({ code: '040002', errors: [expect.objectContaining({ field: 'language' })] });
  });
});
