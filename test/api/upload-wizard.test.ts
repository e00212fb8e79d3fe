import ExcelJS from 'exceljs';
import { Worker } from 'node:worker_threads';
import type { AppEvent } from '../../electron/core/events';
import { ordersWorkbook, sampleOrder, senderDefaults } from '../fixtures/xlsx/orders-workbook';
import { createTestApp } from '../helpers/test-app';
import { ownerOf } from '../../electron/core/auth/caller';

// The desktop import wizard's commands, through the same command table the window uses:
// preview → suggested mapping → dry run → run (progress events, cancel) → results → errors file.

type TestApp = Awaited<ReturnType<typeof createTestApp>>;
let t: TestApp;
afterEach(async () => {
  await t?.close();
});

async function call<T = any>(name: string, input: unknown): Promise<T> {
  const result = await t.app.dispatch(name, t.shop, input);
  if (!result.ok) throw new Error(`${name}: ${JSON.stringify(result.error)}`);
  return result.value as T;
}

const orderCount = async () => Number((await t.app.db.selectFrom('orders').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

function settings(columnMap: Record<string, string>, rowStart: number) {
  return {
    providerKey: 'sandbox-express',
    columnSettings: { dateFormat: 'd.m.Y', timeFormat: 'H:i', nameFormat: false, itemsNewRow: true, rowStart },
    columnMap,
    defaultData: senderDefaults,
  };
}

async function waitFor(importId: number, statuses: string[]) {
  for (let i = 0; i < 400; i++) {
    const state = await call('import.results', { importId });
    if (statuses.includes(state.status)) return state;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('the import did not finish');
}

describe('the import wizard', () => {
  it('previews the first rows, finds the header row and guesses the column map from the titles', async () => {
    t = await createTestApp();
    const { buffer, columnMap } = await ordersWorkbook([sampleOrder('SHOP-1'), sampleOrder('SHOP-2')], { itemsNewRow: true });
    const preview = await call('import.preview', { file: { base64: buffer.toString('base64'), name: 'заказы.xlsx' }, rows: 4 });
    expect(preview).toMatchObject({ importId: expect.any(Number), fileName: 'заказы.xlsx', sheetName: 'Заказы', sheetNames: ['Заказы'], headerRow: 2, rowStart: 3 });
    expect(preview.rows.map((r: any) => r.row)).toEqual([1, 2, 3, 4]);
    expect(preview.rows[2].cells).toMatchObject({ A: 'SHOP-1', B: '1200' });
    // the cells the workbook stores as numbers are named, so the window writes them in its language ("990,5")
    expect(preview.rows[2].numbers).toMatchObject({ B: '1200' });
    expect(preview.rows[2].numbers.A).toBeUndefined();
    expect(preview.headers[0]).toEqual({ column: 'A', title: 'Номер заказа' });
    // every column of the shop-style export is recognised by its Russian title
    expect(preview.suggested.columnMap).toEqual(columnMap);
    expect(preview.suggested.matches.every((m: any) => m.key !== null)).toBe(true);
  });

  it('suggests a map from English titles and a name in parts', async () => {
    t = await createTestApp();
    const suggested = await call('import.suggestMapping', {
      headers: [
        { column: 'A', title: 'Order number' },
        { column: 'B', title: 'Фамилия' },
        { column: 'C', title: 'Имя' },
        { column: 'D', title: 'Отчество' },
        { column: 'E', title: 'Phone' },
        { column: 'F', title: 'Delivery address' },
        { column: 'G', title: 'Product name' },
        { column: 'H', title: 'Qty' },
        { column: 'I', title: 'Item weight' },
        { column: 'J', title: 'Cash on delivery' },
        { column: 'K', title: 'Sender phone' },
        { column: 'L', title: 'Что-то своё' },
      ],
    });
    expect(suggested.nameFormat).toBe(true);
    expect(suggested.columnMap).toEqual({
      'order.clientNumber': 'A',
      'recipient.contactName': 'B,C,D',
      'recipient.phone': 'E',
      'recipient.addressString': 'F',
      'item.description': 'G',
      'item.quantity': 'H',
      'item.weight': 'I',
      'cost.codCost': 'J',
      'sender.phone': 'K',
    });
    expect(suggested.matches.at(-1)).toEqual({ column: 'L', title: 'Что-то своё', key: null });
  });

  it('a dry run reports every failed order and creates nothing', async () => {
    t = await createTestApp();
    const { buffer, columnMap } = await ordersWorkbook(
      [sampleOrder('OK'), sampleOrder('BAD', (o) => (o.fields['order.weight'] = 'тяжёлый'))],
      { itemsNewRow: true },
    );
    const { importId } = await call('import.preview', { file: { base64: buffer.toString('base64') } });
    const dry = await call('import.dryRun', { importId, settings: settings(columnMap, 3) });
    expect(dry).toMatchObject({ importId, orders: 2, valid: 1, failed: 1 });
    expect(dry.resultItems).toEqual([
      expect.objectContaining({ clientNumber: 'BAD', row: 5, code: '040002', errors: [expect.objectContaining({ field: 'order.weight', message: 'must be a number (cell B5: "тяжёлый")', key: 'import.at' })] }),
    ]);
    expect(await orderCount()).toBe(0);
  });

  it('runs a staged file by the import worker reading it where it is kept: no copy of its bytes goes to the worker', async () => {
    t = await createTestApp();
    const { buffer, columnMap } = await ordersWorkbook([sampleOrder('W-1'), sampleOrder('W-2')], { itemsNewRow: true });
    const { importId } = await call('import.preview', { file: { base64: buffer.toString('base64'), name: 'shop.xlsx' } });
    const post = vi.spyOn(Worker.prototype, 'postMessage');
    try {
      await call('import.run', { importId, settings: settings(columnMap, 3), errorsToFile: false });
      expect(await waitFor(importId, ['done'])).toMatchObject({ status: 'done', created: 2 });
      const reads = post.mock.calls.map(([message]) => message as { kind?: string; bytes?: unknown; file?: string }).filter((m) => m?.kind === 'read');
      expect(reads).toEqual([expect.objectContaining({ file: expect.stringMatching(new RegExp(`${importId}\\.xlsx$`)) })]);
      expect(reads[0].bytes).toBeUndefined();
    } finally {
      post.mockRestore();
    }
  });

  it('runs in the background with progress events, then gives results and the errors file', async () => {
    t = await createTestApp();
    const events: Extract<AppEvent, { type: 'import.progress' }>[] = [];
    t.app.events.subscribe((e) => e.type === 'import.progress' && events.push(e));
    const { buffer, columnMap } = await ordersWorkbook(
      [sampleOrder('A-1'), sampleOrder('A-2', (o) => (o.fields['recipient.phone'] = '?')), sampleOrder('A-3')],
      { itemsNewRow: true },
    );
    await call('settings.update', { preferences: { language: 'ru' } }); // the errors file speaks the app's language
    const { importId } = await call('import.preview', { file: { base64: buffer.toString('base64'), name: 'shop.xlsx' } });
    const started = await call('import.run', { importId, settings: settings(columnMap, 3), errorsToFile: true });
    expect(started).toMatchObject({ uploadId: importId, status: 'queued' });
    const done = await waitFor(importId, ['done']);
    expect(done).toMatchObject({ status: 'done', total: 3, done: 3, created: 2, failed: 1 });
    expect(done.resultItems.map((i: any) => i.clientNumber)).toEqual(['A-1', 'A-2', 'A-3']);
    expect(events.every((e) => e.companyId === t.shop.companyId && e.importId === importId)).toBe(true);
    expect(events.map((e) => e.status)).toEqual(expect.arrayContaining(['reading', 'creating', 'done']));
    expect(events.at(-1)).toMatchObject({ status: 'done', done: 3, total: 3 });

    const file = await call('import.errorsFile', { importId });
    expect(file.fileName).toBe('shop — ошибки.xlsx');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(file.base64, 'base64') as unknown as ArrayBuffer);
    const ws = wb.getWorksheet(1)!;
    const errorColumn = Object.keys(columnMap).length + 1;
    expect(String(ws.getRow(5).getCell(errorColumn).value)).toMatch(/^recipient.phone: Введите номер телефона/);

    // running the same staged file again is a new import; its orders are duplicates now
    const again = await call('import.run', { importId, settings: settings(columnMap, 3), errorsToFile: false });
    expect(again.uploadId).not.toBe(importId);
    const second = await waitFor(again.uploadId, ['done']);
    expect(second).toMatchObject({ created: 0, failed: 3 });
    expect(await orderCount()).toBe(2);
  });

  it('a canceled run keeps the orders it created and reports the rest as not imported', async () => {
    t = await createTestApp({ imports: { batchSize: 5 } });
    const orders = Array.from({ length: 60 }, (_, i) => sampleOrder(`C-${i + 1}`));
    const { buffer, columnMap } = await ordersWorkbook(orders, { itemsNewRow: true });
    const { importId } = await call('import.preview', { file: { base64: buffer.toString('base64') } });
    let cancel: Promise<unknown> | undefined;
    t.app.events.subscribe((e) => {
      if (e.type === 'import.progress' && e.status === 'creating' && (e.done as number) > 0 && !cancel) cancel = call('import.cancel', { importId });
    });
    await call('import.run', { importId, settings: settings(columnMap, 3), errorsToFile: false });
    const state = await waitFor(importId, ['canceled', 'done']);
    await cancel;
    const final = await call('import.results', { importId });
    expect(final.status).toBe('canceled');
    const created = final.resultItems.filter((i: any) => i.orderId);
    const skipped = final.resultItems.filter((i: any) => i.code === '040000');
    expect(created.length).toBeGreaterThan(0);
    expect(created.length).toBeLessThan(60);
    expect(created.length + skipped.length).toBe(60);
    expect(skipped[0]).toMatchObject({ message: 'Not imported', description: 'The import was canceled before this order was created' });
    expect(await orderCount()).toBe(created.length);
    expect(state.status === 'canceled' || state.status === 'done').toBe(true);
  });

  it('imports work the same with a reading worker started ahead (prewarm)', async () => {
    t = await createTestApp();
    t.app.services.imports.prewarm();
    const { buffer, columnMap } = await ordersWorkbook([sampleOrder('W-1')], { itemsNewRow: true });
    for (const n of [1, 2]) {
      const { importId } = await call('import.preview', { file: { base64: buffer.toString('base64') } });
      const dry = await call('import.dryRun', { importId, settings: settings(columnMap, 3) });
      expect(dry, `round ${n}`).toMatchObject({ orders: 1, valid: 1 });
    }
  });

  it('a file the wizard cannot read is refused at preview, with the reason', async () => {
    t = await createTestApp();
    const result = await t.app.dispatch('import.preview', t.shop, { file: { base64: Buffer.from('hello').toString('base64') } });
    expect(result).toMatchObject({ ok: false, error: { code: '040000', message: 'Bad file', description: expect.stringMatching(/text/) } });
  });

  it('another company cannot see or run a staged file', async () => {
    t = await createTestApp();
    const { buffer, columnMap } = await ordersWorkbook([sampleOrder('X')], { itemsNewRow: true });
    const { importId } = await call('import.preview', { file: { base64: buffer.toString('base64') } });
    const other = ownerOf((await t.app.services.companies.ensureWithToken('other-company-token', 'Other')).companyId);
    const run = await t.app.dispatch('import.run', other, { importId, settings: settings(columnMap, 3) });
    expect(run).toMatchObject({ ok: false, error: { code: '040016' } });
  });
});
