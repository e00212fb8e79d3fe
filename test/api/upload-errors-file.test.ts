import ExcelJS from 'exceljs';
import { rawEntryData, readZipDirectory } from '../../electron/core/import/zip';
import { ordersWorkbook, sampleOrder, uploadBody } from '../fixtures/xlsx/orders-workbook';
import { startTestServer, type TestServer } from '../helpers/test-server';

// errorsToFile: the shop's own workbook comes back with each failed row filled and its errors in a new
// column beside the table; everything else as it was. Read back with exceljs and checked cell by cell.

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(async () => {
  await server.close();
});

const red = 'FFFFC7CE';

async function load(buffer: Buffer) {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(buffer as unknown as ArrayBuffer);
  return wb;
}

const fillOf = (cell: ExcelJS.Cell) => (cell.fill && cell.fill.type === 'pattern' ? (cell.fill.fgColor as { argb?: string } | undefined)?.argb : undefined);

async function workbookWithFailures() {
  const orders = [
    sampleOrder('GOOD-1'),
    sampleOrder('BAD-PHONE', (o) => (o.fields['recipient.phone'] = 'не скажу')),
    sampleOrder('BAD-ITEM', (o) => (o.items[1]['item.quantity'] = 0)),
    sampleOrder('GOOD-2'),
  ];
  return ordersWorkbook(orders, {
    itemsNewRow: true,
    customize: (ws, wb, layout) => {
      ws.getRow(layout.headerRow).font = { bold: true };
      ws.getColumn(layout.columnOf['cost.codCost']).numFmt = '#,##0.00 ₽';
      ws.getColumn(1).width = 18;
      ws.mergeCells('A1:D1'); // a merged title above the table is fine
      const other = wb.addWorksheet('Справочник');
      other.getCell('A1').value = 'Тарифы';
      other.getCell('B2').value = { formula: '1+1', result: 2 } as ExcelJS.CellFormulaValue;
    },
  });
}

describe('errorsToFile', () => {
  it('marks each failed row, writes its errors beside it in the app\'s language, and leaves the rest of the workbook as it was', async () => {
    await server.command('settings.update', { preferences: { language: 'ru' } });
    const { buffer, columnMap, layout } = await workbookWithFailures();
    const res = await server.call('POST', '/orders/upload', { body: uploadBody(buffer, columnMap, { itemsNewRow: true, errorsToFile: true }) });
    expect(res.status, res.text).toBe(200);
    expect(res.json.resultItems.map((i: any) => Boolean(i.orderId))).toEqual([true, false, false, true]);
    const returned = Buffer.from(res.json.base64, 'base64');

    const before = await load(buffer);
    const after = await load(returned);
    const sheet = after.getWorksheet('Заказы')!;
    const original = before.getWorksheet('Заказы')!;
    const errorColumn = layout.lastColumn + 1;

    // the new column: a title in the header row, nothing in the title row
    expect(sheet.getRow(layout.headerRow).getCell(errorColumn).value).toBe('Ошибки импорта');
    expect(sheet.getRow(1).getCell(errorColumn).value).toBeNull();

    const failedRows = new Set([...layout.rowsOf.get('BAD-PHONE')!, ...layout.rowsOf.get('BAD-ITEM')!]);
    const [phoneRow] = layout.rowsOf.get('BAD-PHONE')!;
    const [itemOrderRow, itemRow] = layout.rowsOf.get('BAD-ITEM')!;
    const phoneCell = `${layout.columnOf['recipient.phone']}${phoneRow}`;
    const quantityCell = `${layout.columnOf['item.quantity']}${itemRow}`;

    for (let r = 1; r <= original.rowCount; r++) {
      for (let c = 1; c <= layout.lastColumn; c++) {
        const was = original.getRow(r).getCell(c);
        const now = sheet.getRow(r).getCell(c);
        expect(now.value, `${now.address} keeps its value`).toEqual(was.value);
        expect(now.numFmt, `${now.address} keeps its number format`).toBe(was.numFmt);
        expect(now.font?.bold, `${now.address} keeps its font`).toBe(was.font?.bold);
        expect(fillOf(now), `${now.address} fill`).toBe(failedRows.has(r) ? red : undefined);
      }
      const note = sheet.getRow(r).getCell(errorColumn);
      // In the shop's language, by key: the file is read by people, the interface's English is for programs.
      if (r === phoneRow) expect(note.value).toBe(`recipient.phone: Введите номер телефона, например +7 900 123-45-67 (ячейка ${phoneCell}: «не скажу»)`);
      else if (r === itemRow) expect(note.value).toBe(`item.quantity: Должно быть больше 0 (ячейка ${quantityCell}: «0»)`);
      else if (r === itemOrderRow || failedRows.has(r)) expect(note.value).toBeNull(); // part of a failed order, no error of its own
      else if (r !== layout.headerRow) expect(note.value).toBeNull();
      if (failedRows.has(r)) expect(fillOf(note)).toBe(red);
    }
    expect(sheet.getCell('A1').value).toBe('Выгрузка заказов интернет-магазина');
    expect(sheet.getCell('A1').isMerged && sheet.getCell('D1').isMerged).toBe(true);
    expect(sheet.getColumn(1).width).toBe(18);
    expect(sheet.getColumn(errorColumn).width).toBe(60);
    expect(after.getWorksheet('Справочник')!.getCell('B2').value).toEqual({ formula: '1+1', result: 2 });
  });

  it('changes only the sheet and the styles inside the file: every other part is copied byte for byte', async () => {
    const { buffer, columnMap } = await workbookWithFailures();
    const res = await server.call('POST', '/orders/upload', { body: uploadBody(buffer, columnMap, { itemsNewRow: true, errorsToFile: true }) });
    const returned = Buffer.from(res.json.base64, 'base64');
    const a = readZipDirectory(buffer);
    const b = new Map(readZipDirectory(returned).map((e) => [e.name, e]));
    expect([...b.keys()]).toEqual(a.map((e) => e.name));
    for (const entry of a) {
      if (entry.name === 'xl/worksheets/sheet1.xml' || entry.name === 'xl/styles.xml') continue;
      expect(rawEntryData(returned, b.get(entry.name)!).equals(rawEntryData(buffer, entry)), entry.name).toBe(true);
    }
  });

  it('with no failed row there is no errors file; without errorsToFile neither', async () => {
    const { buffer, columnMap } = await ordersWorkbook([sampleOrder('ONLY')], { itemsNewRow: true });
    const clean = await server.call('POST', '/orders/upload', { body: uploadBody(buffer, columnMap, { itemsNewRow: true, errorsToFile: true }) });
    expect(clean.json.base64).toBeNull();
    const bad = await ordersWorkbook([sampleOrder('BAD', (o) => (o.fields['recipient.phone'] = 'x'))], { itemsNewRow: true });
    const off = await server.call('POST', '/orders/upload', { body: uploadBody(bad.buffer, bad.columnMap, { itemsNewRow: true, errorsToFile: false }) });
    expect(off.json.resultItems[0].code).toBe('040002');
    expect(off.json.base64).toBeNull();
  });

  it('marks a duplicate found at write time too, and a file without a title row gets no title; in English when the app is', async () => {
    await server.command('settings.update', { preferences: { language: 'en' } });
    const { buffer, columnMap, layout } = await ordersWorkbook([sampleOrder('DUP')], { itemsNewRow: false, titleRow: false });
    const body = uploadBody(buffer, columnMap, { itemsNewRow: false, errorsToFile: true, rowStart: 2 });
    await server.call('POST', '/orders/upload', { body });
    const again = await server.call('POST', '/orders/upload', { body });
    const sheet = (await load(Buffer.from(again.json.base64, 'base64'))).getWorksheet(1)!;
    const errorColumn = layout.lastColumn + 1;
    expect(sheet.getRow(1).getCell(errorColumn).value).toBe('Import errors');
    expect(String(sheet.getRow(2).getCell(errorColumn).value)).toMatch(/^order.clientNumber: An order with number DUP already exists \(order \d+\)/);
    for (const r of layout.rowsOf.get('DUP')!) expect(fillOf(sheet.getRow(r).getCell(1))).toBe(red);
  });
});
