import ExcelJS from 'exceljs';
import { ordersWorkbook, sampleOrder, senderDefaults } from '../fixtures/xlsx/orders-workbook';
import { createTestApp } from '../helpers/test-app';

// The import's errors file is written in the language of the window that started the run (carried with
// import.run, kept with the import), or of the window asking for it later — not in the core machine's.

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
