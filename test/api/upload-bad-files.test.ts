import { deflateRawSync } from 'node:zlib';
import { entryData, readZipDirectory, rewriteZip } from '../../electron/core/import/zip';
import type { AppOptions } from '../../electron/core/app';
import { ordersWorkbook, sampleOrder, uploadBody } from '../fixtures/xlsx/orders-workbook';
import { startTestServer, type TestServer } from '../helpers/test-server';

// Files that cannot be imported get a clear 400 (040000, the reason in description) and create nothing.

let server: TestServer;
afterEach(async () => {
  await server?.close();
});
const start = async (options: Partial<AppOptions> = {}) => (server = await startTestServer(options));

const orderCount = async () => Number((await server.app.db.selectFrom('orders').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

async function good() {
  return ordersWorkbook([sampleOrder('SHOP-1'), sampleOrder('SHOP-2')], { itemsNewRow: true });
}

async function uploadFile(buffer: Buffer, columnMap?: Record<string, string>) {
  const map = columnMap ?? (await good()).columnMap;
  return server.call('POST', '/orders/upload', { body: uploadBody(buffer, map, { itemsNewRow: true }) });
}

/** The workbook with one part's contents replaced (the rest of the archive untouched). */
function withPart(buffer: Buffer, name: string, edit: (xml: string) => string): Buffer {
  const entries = readZipDirectory(buffer);
  const entry = entries.find((e) => e.name === name)!;
  const xml = entryData(buffer, entry, 1e9).toString('utf8');
  return rewriteZip(buffer, entries, new Map([[name, Buffer.from(edit(xml), 'utf8')]]));
}

async function expectRefused(res: Awaited<ReturnType<typeof uploadFile>>, description: RegExp) {
  expect(res.status, res.text).toBe(400);
  expect(res.json).toMatchObject({ code: '040000', message: 'Bad file', description: expect.stringMatching(description) });
  expect(Object.keys(res.json).sort(), 'the interface sends no message keys').toEqual(['code', 'description', 'errors', 'message']);
  expect(await orderCount()).toBe(0);
}

describe('a file that cannot be imported creates nothing and says why', () => {
  it('not a workbook at all: text, or random bytes', async () => {
    await start();
    await expectRefused(await uploadFile(Buffer.from('Номер;Вес\nSHOP-1;1200\n', 'utf8')), /text \(CSV, HTML or similar\), not an xlsx workbook/);
    await expectRefused(await uploadFile(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13])), /not an xlsx workbook/);
    const res = await server.call('POST', '/orders/upload', { body: { ...uploadBody(Buffer.alloc(0), {}, { itemsNewRow: true }), file: { base64: '***' } } });
    expect(res.status).toBe(400);
  });

  it('an old .xls file, and a password-protected workbook', async () => {
    await start();
    // Both are OLE compound files; an encrypted xlsx holds the streams EncryptionInfo and EncryptedPackage.
    const ole = (streams: string[]) =>
      Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(504), ...streams.map((s) => Buffer.from(s.padEnd(32, '\0'), 'utf16le'))]);
    await expectRefused(await uploadFile(ole(['Workbook', 'SummaryInformation'])), /old Excel 97–2003 \(\.xls\) file/);
    await expectRefused(await uploadFile(ole(['EncryptionInfo', 'EncryptedPackage'])), /protected with a password/);
  });

  it('a damaged (cut off) workbook', async () => {
    await start();
    const { buffer } = await good();
    await expectRefused(await uploadFile(buffer.subarray(0, Math.floor(buffer.length / 2))), /damaged or incomplete/);
  });

  it('a zip bomb that admits its size is refused before anything is unpacked', async () => {
    await start();
    const { buffer } = await good();
    const entries = readZipDirectory(buffer);
    const sheet = entries.find((e) => e.name === 'xl/worksheets/sheet1.xml')!;
    const lying = Buffer.from(buffer);
    // the central directory says the sheet unpacks to 3.9 GB
    const cd = lying.lastIndexOf(Buffer.from('xl/worksheets/sheet1.xml')) - 46;
    lying.writeUInt32LE(3_900_000_000, cd + 24);
    expect(sheet.size).toBeLessThan(100_000);
    await expectRefused(await uploadFile(lying), /unpacks to far more data than a workbook of its size can hold|unpacks to \d+ MB/);
  });

  it('a zip bomb that lies about its size is stopped once it unpacks past the limit', async () => {
    await start({ imports: { maxUncompressedBytes: 2 * 1024 * 1024 } });
    const { buffer } = await good();
    const padded = withPart(buffer, 'xl/worksheets/sheet1.xml', (xml) => xml.replace('<sheetData>', `<sheetData>${' '.repeat(3 * 1024 * 1024)}`));
    // say the sheet is small, in the central directory and in its local header
    const name = Buffer.from('xl/worksheets/sheet1.xml');
    const at = padded.lastIndexOf(name) - 46;
    padded.writeUInt32LE(1000, at + 24);
    const local = padded.indexOf(name) - 30;
    padded.writeUInt32LE(1000, local + 22);
    await expectRefused(await uploadFile(padded), /The sheet unpacks to more than the 1,000 bytes its file says it holds/);
  });

  it('a workbook with no sheets, and one whose first sheet is missing', async () => {
    await start();
    const { buffer } = await good();
    await expectRefused(await uploadFile(withPart(buffer, 'xl/workbook.xml', (xml) => xml.replace(/<sheets>[\s\S]*<\/sheets>/, '<sheets/>'))), /has no sheets/);
    const entries = readZipDirectory(buffer).filter((e) => e.name !== 'xl/worksheets/sheet1.xml');
    await expectRefused(await uploadFile(rewriteZip(buffer, entries, new Map())), /has no data in the file/);
  });

  it('a million rows: a sheet that says so is refused at once', async () => {
    await start();
    const { buffer } = await good();
    // what Excel writes for a sheet of 1,000,001 rows: the dimension first, then the rows
    const rows: string[] = [];
    for (let r = 3; r <= 1_000_003; r++) rows.push(`<row r="${r}"><c r="A${r}"><v>${r}</v></c></row>`);
    const huge = withPart(buffer, 'xl/worksheets/sheet1.xml', (xml) =>
      xml.replace(/<dimension ref="[^"]*"\/>/, '').replace('<sheetData>', '<dimension ref="A1:A1000003"/><sheetData>').replace(/<\/sheetData>/, `${rows.join('')}</sheetData>`),
    );
    rows.length = 0;
    const res = await uploadFile(huge);
    await expectRefused(res, /more than 100,000 rows from row 3/);
  }, 120_000);

  it('too many rows without a dimension: reading stops at the limit', async () => {
    await start({ imports: { maxDataRows: 3 } });
    const { buffer, columnMap } = await ordersWorkbook([1, 2, 3].map((n) => sampleOrder(`SHOP-${n}`)), { itemsNewRow: true });
    await expectRefused(await uploadFile(buffer, columnMap), /^The sheet has more than 3 rows from row 3 \(it ends at row 8\)/);
    const noDimension = withPart(buffer, 'xl/worksheets/sheet1.xml', (xml) => xml.replace(/<dimension ref="[^"]*"\/>/, ''));
    await expectRefused(await uploadFile(noDimension, columnMap), /^The sheet has more than 3 rows from row 3; split it into smaller files or set rowEnd\.$/);
    // rowEnd keeps the read within the limit
    const res = await server.call('POST', '/orders/upload', { body: uploadBody(buffer, columnMap, { itemsNewRow: true, rowEnd: 4 }) });
    expect(res.json.resultItems).toEqual([expect.objectContaining({ clientNumber: 'SHOP-1', orderId: expect.any(Number) })]);
  });

  it('merged cells in the table are refused, naming them; merged cells above it are fine', async () => {
    await start();
    const { buffer, columnMap } = await ordersWorkbook([sampleOrder('SHOP-1'), sampleOrder('SHOP-2')], {
      itemsNewRow: true,
      customize: (ws, _wb, layout) => {
        ws.mergeCells('A1:C1');
        const [a, b] = layout.rowsOf.get('SHOP-2')!;
        ws.mergeCells(`${layout.columnOf['order.clientNumber']}${a}:${layout.columnOf['order.clientNumber']}${b}`);
      },
    });
    await expectRefused(await uploadFile(buffer, columnMap), /^Merged cells in the table \(A5:A6\): a merged cell keeps its value only in its first cell\. Unmerge them/);
  });

  it('formulas: their saved results are used; a formula with no saved result fails its order with a clear message', async () => {
    await start();
    const { buffer, columnMap, layout } = await ordersWorkbook([sampleOrder('CALC'), sampleOrder('NO-RESULT')], {
      itemsNewRow: true,
      customize: (ws, _wb, l) => {
        const cod = l.columnOf['cost.codCost'];
        for (const r of l.rowsOf.get('CALC')!) ws.getCell(`${cod}${r}`).value = { formula: '2500+490.5', result: 2990.5 } as any;
        for (const r of l.rowsOf.get('NO-RESULT')!) ws.getCell(`${cod}${r}`).value = { formula: '2500+490.5' } as any;
      },
    });
    const res = await uploadFile(buffer, columnMap);
    expect(res.status).toBe(200);
    const [calc, none] = res.json.resultItems;
    expect(calc).toMatchObject({ clientNumber: 'CALC', orderId: expect.any(Number) });
    const cell = `${layout.columnOf['cost.codCost']}${layout.rowsOf.get('NO-RESULT')![0]}`;
    expect(none.errors).toEqual([
      { field: 'cost.codCost', message: `has a formula (=2500+490.5) with no saved result: open the file in Excel, let it calculate and save it, or paste the values (cell ${cell}: "=2500+490.5")` },
    ]);
  });

  it('a sheet with only its header, or rows outside rowStart..rowEnd: no orders found', async () => {
    await start();
    const { buffer, columnMap } = await ordersWorkbook([], { itemsNewRow: true, keys: Object.keys((await good()).columnMap) });
    await expectRefused(await uploadFile(buffer, columnMap), /No orders found in the sheet «Заказы» from row 3/);
  });

  it('the first visible sheet is imported, wherever it sits in the file', async () => {
    await start();
    const { buffer, columnMap } = await ordersWorkbook([sampleOrder('SHOP-1')], {
      itemsNewRow: true,
      customize: (ws, wb) => {
        const hidden = wb.addWorksheet('Старое', { state: 'hidden' });
        hidden.getCell('A3').value = 'OLD-1';
        // the hidden sheet goes first in the tab order
        (wb as any)._worksheets = [undefined, hidden, ws];
        Object.assign(hidden, { orderNo: 0 });
        Object.assign(ws, { orderNo: 1 });
      },
    });
    const res = await uploadFile(buffer, columnMap);
    expect(res.status, res.text).toBe(200);
    expect(res.json.resultItems.map((i: any) => i.clientNumber)).toEqual(['SHOP-1']);
  });

  it('a sheet compressed in a way this reader does not know is refused as damaged', async () => {
    await start();
    const { buffer } = await good();
    const entries = readZipDirectory(buffer);
    const broken = Buffer.from(buffer);
    const wb = entries.find((e) => e.name === 'xl/workbook.xml')!;
    broken.writeUInt16LE(99, wb.localHeaderOffset + 8); // local header: method 99
    const cdAt = broken.lastIndexOf(Buffer.from('xl/workbook.xml')) - 46;
    broken.writeUInt16LE(99, cdAt + 10);
    await expectRefused(await uploadFile(broken), /cannot be read: entry xl\/workbook.xml uses an unsupported compression method 99/);
    expect(deflateRawSync).toBeDefined();
  });

  it('a character reference to no character in the workbook or a sheet is a damaged file (400), never a 500', async () => {
    await start();
    const { buffer } = await good();
    await expectRefused(await uploadFile(withPart(buffer, 'xl/workbook.xml', (xml) => xml.replace(/name="[^"]*"/, 'name="&#99999999;"'))), /damaged: &#99999999; is not a character/);
    await expectRefused(await uploadFile(withPart(buffer, 'xl/workbook.xml', (xml) => xml.replace(/name="[^"]*"/, 'name="&#xD800;"'))), /damaged: &#xD800; is not a character/);
    await expectRefused(await uploadFile(withPart(buffer, 'xl/sharedStrings.xml', (xml) => xml.replace('<t>', '<t>&#x110000;'))), /&#x110000; is not a character/);
  });

  it('a cell beyond column XFD is refused as damaged', async () => {
    await start();
    const { buffer } = await good();
    await expectRefused(await uploadFile(withPart(buffer, 'xl/worksheets/sheet1.xml', (xml) => xml.replace('</row>', '<c r="XFE3" t="inlineStr"><is><t>x</t></is></c></row>'))), /beyond column XFD/);
  });
});
