import ExcelJS from 'exceljs';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CellValue, SheetRow } from './cells';
import { defaultLimits, FileProblem, inspectWorkbook } from './file-check';
import { createSheetScanner, readSheet, type ReadOptions } from './sheet-reader';
import type { WorkerMessage } from './worker-protocol';
import { createFlowControl, runWorkerTask } from './worker-tasks';
import { writeZip } from './zip';

// The import's own reader of a sheet's XML. Workbooks are made by exceljs (the same library shops' other
// tools use to write them), read back with our reader, and compared with what was written.

const options = (o: Partial<ReadOptions> = {}): ReadOptions => ({ fromRow: 1, dataFrom: 2, maxDataRows: 100_000, maxSheetXmlBytes: 50 * 1024 * 1024, ...o });

async function read(bytes: Buffer, o: Partial<ReadOptions> = {}) {
  const rows: SheetRow[] = [];
  const summary = await readSheet(bytes, inspectWorkbook(bytes, defaultLimits), options(o), (batch) => rows.push(...batch));
  return { rows, summary, byRow: new Map(rows.map((r) => [r.row, r.cells])) };
}

/** A workbook with one sheet, written by exceljs' regular (shared strings) writer. */
async function sharedStringsBook(fill: (sheet: ExcelJS.Worksheet) => void): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  fill(workbook.addWorksheet('Заказы'));
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** The same through exceljs' streaming writer without shared strings: strings inline in the sheet. */
async function inlineStringsBook(fill: (sheet: ExcelJS.Worksheet) => void): Promise<Buffer> {
  const dir = mkdtempSync(join(tmpdir(), 'sheet-reader-'));
  try {
    const file = join(dir, 'book.xlsx');
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useSharedStrings: false, useStyles: true });
    const sheet = workbook.addWorksheet('Заказы');
    fill(sheet as unknown as ExcelJS.Worksheet);
    for (let r = 1; r <= sheet.rowCount; r++) sheet.getRow(r).commit();
    sheet.commit();
    await workbook.commit();
    return readFileSync(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const fillKinds = (sheet: ExcelJS.Worksheet) => {
  sheet.addRow(['Номер', 'Дата', 'Время', 'Вес', 'Получатель', 'Оплачен', 'Сумма']);
  const row = sheet.addRow([]);
  row.getCell(1).value = 'A-1 & <Co> "quoted"';
  row.getCell(2).value = new Date(Date.UTC(2026, 10, 25));
  row.getCell(2).numFmt = 'dd.mm.yyyy';
  row.getCell(3).value = 0.375;
  row.getCell(3).numFmt = 'hh:mm';
  row.getCell(4).value = 1250.5;
  // column E left empty
  row.getCell(6).value = true;
  row.getCell(7).value = { formula: 'D2*2', result: 2501 };
  row.getCell(8).value = { formula: 'B2+1', result: new Date(Date.UTC(2026, 10, 26)) };
  row.getCell(8).numFmt = 'dd.mm.yyyy';
  row.getCell(9).value = { formula: 'UNKNOWN()' } as ExcelJS.CellFormulaValue;
  row.getCell(10).value = { error: '#N/A' } as ExcelJS.CellErrorValue;
  row.getCell(11).value = { richText: [{ text: 'Иван ' }, { font: { bold: true }, text: 'Петров' }] };
  row.getCell(12).value = { formula: 'A2', result: 'A-1 text result' };
  row.getCell(13).value = 0;
};

const expectedKinds: CellValue[] = [
  'A-1 & <Co> "quoted"',
  new Date(Date.UTC(2026, 10, 25)),
  new Date(Date.UTC(1899, 11, 30, 9, 0)), // a time is a day fraction from Excel's epoch
  1250.5,
  null,
  true,
  2501,
  new Date(Date.UTC(2026, 10, 26)),
  { formula: 'UNKNOWN()' },
  { error: '#N/A' },
  'Иван Петров',
  'A-1 text result',
  0,
];

describe('reading a sheet of an xlsx workbook', () => {
  it('reads every kind of cell from a workbook with shared strings', async () => {
    const { rows, summary } = await read(await sharedStringsBook(fillKinds));
    expect(rows[0]).toEqual({ row: 1, cells: ['Номер', 'Дата', 'Время', 'Вес', 'Получатель', 'Оплачен', 'Сумма'] });
    expect(rows[1].row).toBe(2);
    expect(rows[1].cells).toEqual(expectedKinds);
    expect(summary).toMatchObject({ sheetName: 'Заказы', rowsSent: 2, dataRows: 1, lastRow: 2, maxColumn: 13, merges: [], stoppedEarly: false });
  });

  it('reads the same cells when the strings are written inline in the sheet', async () => {
    const { rows } = await read(await inlineStringsBook(fillKinds));
    expect(rows[1].cells).toEqual(expectedKinds);
  });

  it('leaves out empty cells and empty rows, keeping every cell in its column', async () => {
    const { rows } = await read(
      await sharedStringsBook((sheet) => {
        sheet.getCell('A1').value = 'header';
        sheet.getCell('C3').value = 'third column';
        sheet.getCell('AB3').value = 28;
        sheet.getCell('B4').value = ''; // an empty string is no value
        sheet.getCell('A5').value = 'last';
      }),
    );
    expect(rows).toEqual([
      { row: 1, cells: ['header'] },
      { row: 3, cells: [null, null, 'third column', ...Array(24).fill(null), 28] },
      { row: 5, cells: ['last'] },
    ]);
  });

  it('reports merged ranges and reads the value of a merged cell from its first cell', async () => {
    const { rows, summary } = await read(
      await sharedStringsBook((sheet) => {
        sheet.getCell('A1').value = 'Заказы за ноябрь';
        sheet.mergeCells('A1:D1');
        sheet.getCell('A2').value = 'one';
        sheet.getCell('B2').value = 'two';
        sheet.mergeCells('B2:C3');
      }),
    );
    expect(summary.merges.sort()).toEqual(['A1:D1', 'B2:C3']);
    expect(rows.find((r) => r.row === 1)!.cells).toEqual(['Заказы за ноябрь']);
    expect(rows.find((r) => r.row === 2)!.cells).toEqual(['one', 'two']);
  });

  it('agrees with exceljs on a long sheet of Russian text (characters split between pieces of the stream)', async () => {
    const words = ['Москва', 'Санкт-Петербург', 'ул. Тверская, д. 7', 'Блокнот «А5» — 2 шт.', 'Ёжик', '€ 10', '😀 смайлик'];
    const bytes = await inlineStringsBook((sheet) => {
      // long Russian texts: the sheet inflates in many pieces, and their edges fall inside two-byte characters
      const long = (r: number) => `${words[(r * 3) % words.length]} ${'Доставка до двери, получатель предупреждён. '.repeat(4)}${r}`;
      for (let r = 1; r <= 4000; r++) sheet.addRow([r, words[r % words.length], long(r), r * 1.25]);
    });
    const { rows } = await read(bytes);
    expect(rows).toHaveLength(4000);
    const reference = new ExcelJS.Workbook();
    await reference.xlsx.load(bytes as unknown as ArrayBuffer);
    const sheet = reference.worksheets[0];
    for (const row of rows) expect(row.cells).toEqual((sheet.getRow(row.row).values as CellValue[]).slice(1));
  }, 60_000); // exceljs loading the whole workbook is slow on a busy machine

  it('reads from rowStart to rowEnd, and stops after the rows a preview asks for', async () => {
    const bytes = await sharedStringsBook((sheet) => {
      for (let r = 1; r <= 50; r++) sheet.addRow([`row ${r}`]);
    });
    const part = await read(bytes, { fromRow: 10, dataFrom: 10, toRow: 12 });
    expect(part.rows.map((r) => r.cells[0])).toEqual(['row 10', 'row 11', 'row 12']);
    expect(part.summary.stoppedEarly).toBe(true);
    const preview = await read(bytes, { stopAfterRows: 4 });
    expect(preview.rows.map((r) => r.row)).toEqual([1, 2, 3, 4]);
  });

  it('refuses more data rows than the limit, by the sheet\'s dimension or by counting', async () => {
    const bytes = await sharedStringsBook((sheet) => {
      for (let r = 1; r <= 30; r++) sheet.addRow([r]);
    });
    await expect(read(bytes, { maxDataRows: 10 })).rejects.toThrow(FileProblem);
    await expect(read(bytes, { maxDataRows: 10 })).rejects.toThrow(/more than 10 rows from row 2/);
    // a sheet without its dimension is stopped while counting
    const noDimension = writeZipBook(`<sheetData>${Array.from({ length: 30 }, (_, i) => `<row r="${i + 1}"><c r="A${i + 1}"><v>${i}</v></c></row>`).join('')}</sheetData>`);
    await expect(read(noDimension, { maxDataRows: 10 })).rejects.toThrow(/more than 10 rows/);
  });

  it('stops a sheet that unpacks past the limit (a zip bomb lying about its size)', async () => {
    const bytes = await sharedStringsBook((sheet) => {
      for (let r = 1; r <= 2000; r++) sheet.addRow([r, 'some text to make the sheet larger than the limit']);
    });
    await expect(read(bytes, { maxSheetXmlBytes: 20_000 })).rejects.toThrow(/unpacks to more than/);
  });
});

/** A minimal xlsx with this sheet XML (a hand-written file, as some shop programs write them). */
function writeZipBook(sheetData: string, prefix = ''): Buffer {
  const p = prefix ? `${prefix}:` : '';
  const ns = prefix ? `xmlns:${prefix}` : 'xmlns';
  return writeZip([
    ['[Content_Types].xml', '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>'],
    ['xl/workbook.xml', '<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>'],
    ['xl/_rels/workbook.xml.rels', '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>'],
    ['xl/worksheets/sheet1.xml', `<?xml version="1.0" encoding="UTF-8"?><${p}worksheet ${ns}="http://schemas.openxmlformats.org/spreadsheetml/2006/main">${sheetData}</${p}worksheet>`],
  ]);
}

describe('the sheet scanner on XML as other programs write it', () => {
  const parts = { sharedStrings: ['shared zero', 'shared one'], dateStyles: [false, true], date1904: false };

  const scan = (xml: string, pieceLength: number) => {
    const rows: SheetRow[] = [];
    const merges: string[] = [];
    const dimensions: string[] = [];
    const scanner = createSheetScanner(parts, { onRow: (r) => rows.push(r), onDimension: (d) => dimensions.push(d), onMerge: (m) => merges.push(m) });
    for (let at = 0; at < xml.length; at += pieceLength) scanner.push(xml.slice(at, at + pieceLength));
    scanner.end();
    return { rows: rows.filter((r) => r.cells.length), merges, dimensions };
  };

  const xml =
    '<?xml version="1.0"?><x:worksheet xmlns:x="main"><x:dimension ref="A1:C4"/><!-- a comment <row> --><x:sheetData>' +
    '<x:row r="1"><x:c r="A1" t="s"><x:v>1</x:v></x:c><x:c r="B1" t="inlineStr"><x:is><x:r><x:t>rich </x:t></x:r><x:r><x:t xml:space="preserve">text &amp; more</x:t></x:r><x:rPh><x:t>phonetic</x:t></x:rPh></x:is></x:c></x:row>' +
    '<x:row r="2"/>' +
    '<x:row><x:c><x:v>10</x:v></x:c><x:c s="1"><x:v>46351</x:v></x:c><x:c t="b"><x:v>0</x:v></x:c></x:row>' +
    '<x:row r="4"><x:c r="A4"><x:f t="shared" ref="A4:A5" si="0">B4*2</x:f><x:v>4</x:v></x:c><x:c r="C4" t="str"><x:f>"a"&amp;"b"</x:f><x:v>ab</x:v></x:c></x:row>' +
    '<x:row r="5"><x:c r="A5"><x:f t="shared" si="0"/></x:c><x:c r="B5" t="e"><x:v>#DIV/0!</x:v></x:c><x:c r="C5" t="str"><x:v><![CDATA[<b>&]]></x:v></x:c></x:row>' +
    '</x:sheetData><x:mergeCells count="1"><x:mergeCell ref="A7:B7"/></x:mergeCells></x:worksheet>';

  const expected: SheetRow[] = [
    { row: 1, cells: ['shared one', 'rich text & more'] },
    { row: 3, cells: [10, new Date(Date.UTC(2026, 10, 25)), false] },
    { row: 4, cells: [4, null, 'ab'] },
    { row: 5, cells: [{ formula: 'B4*2' }, { error: '#DIV/0!' }, '<b>&'] },
  ];

  it('reads namespace prefixes, rows and cells without references, shared formulas, CDATA and phonetic guides', () => {
    expect(scan(xml, xml.length)).toEqual({ rows: expected, merges: ['A7:B7'], dimensions: ['A1:C4'] });
  });

  it('gives the same rows whatever pieces the text arrives in', () => {
    for (const piece of [1, 2, 3, 7, 64]) expect(scan(xml, piece).rows).toEqual(expected);
  });

  it('reads a hand-written workbook with prefixed tags through the whole reader', async () => {
    const body = xml.slice(xml.indexOf('<x:dimension'), xml.lastIndexOf('</x:worksheet>'));
    const { rows, summary } = await read(writeZipBook(body, 'x'));
    // no shared strings in this file: the shared string cell is empty
    expect(rows.map((r) => r.row)).toEqual([1, 3, 4, 5]);
    expect(rows[0].cells).toEqual([null, 'rich text & more']);
    expect(rows[1].cells).toEqual([10, 46351, false]); // no styles part: a plain number
    expect(summary.dimension).toBe('A1:C4');
    expect(summary.merges).toEqual(['A7:B7']);
  });
});

describe('the reading worker keeps pace with the main thread', () => {
  it('reads only a few batches (counted in bytes) ahead of the rows taken, and everything once they are', async () => {
    const bytes = await inlineStringsBook((sheet) => {
      for (let r = 1; r <= 4000; r++) sheet.addRow([`ORDER-${r}`, 'Доставка до двери, получатель предупреждён заранее. '.repeat(6)]);
    });
    const flow = createFlowControl(80 * 1024); // ≈ 2 batches of 50 of these rows
    const batches: number[] = [];
    let done = false;
    const finished = runWorkerTask(
      { kind: 'read', bytes, limits: defaultLimits, read: { fromRow: 1, dataFrom: 2, batchRows: 50 }, windowBytes: 80 * 1024 },
      (m: WorkerMessage) => {
        if (m.type === 'rows') batches.push(m.rows.length);
        if (m.type === 'done') done = true;
        if (m.type === 'problem' || m.type === 'crash') throw new Error(m.message);
      },
      flow,
    );
    // nothing taken yet: the worker fills its window, finishes the piece of the sheet it is in, and waits
    while (batches.length < 2) await new Promise((resolve) => setTimeout(resolve, 20));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(done).toBe(false);
    expect(batches.reduce((a, b) => a + b, 0)).toBeLessThan(1500);
    // the main thread takes every batch as it comes: the whole sheet arrives
    while (!done) {
      flow.ack();
      await new Promise((resolve) => setImmediate(resolve));
    }
    await finished;
    expect(batches.reduce((a, b) => a + b, 0)).toBe(4000);
  }, 60_000);
});

describe('columns an import does not map', () => {
  it('are skipped as they are read: a stray cell in XFD neither pads the row to 16,384 cells nor counts in its bytes', () => {
    const parts = { sharedStrings: [], dateStyles: [], date1904: false };
    const rows: { row: SheetRow; bytes: number }[] = [];
    const scanner = createSheetScanner(parts, { onRow: (row, bytes) => rows.push({ row, bytes }), onDimension: () => {}, onMerge: () => {} }, [1, 3]);
    scanner.push('<worksheet><sheetData><row r="2"><c r="A2"><v>1</v></c><c r="B2"><v>2</v></c><c r="C2"><v>3</v></c>');
    scanner.push('<c r="XFD2" t="inlineStr"><is><t>stray</t></is></c></row></sheetData></worksheet>');
    scanner.end();
    expect(rows.map((r) => r.row)).toEqual([{ row: 2, cells: [1, null, 3] }]);
    expect(rows[0].bytes).toBeLessThan(1000); // padded to XFD: 8 bytes a cell, 131 kB a row
    expect(scanner.rightmost).toBe(16_384); // still seen, for the preview's column count
  });
});

describe('text without a tag end', () => {
  it('is refused once it passes 4 MB, however much more arrives, and costs its length once', () => {
    const parts = { sharedStrings: [], dateStyles: [], date1904: false };
    const scanner = createSheetScanner(parts, { onRow: () => {}, onDimension: () => {}, onMerge: () => {} });
    scanner.push('<worksheet><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>');
    const megabyte = 'a'.repeat(1 << 20);
    let pushed = 0;
    const error = (() => {
      try {
        for (; pushed < 300; pushed++) scanner.push(megabyte);
      } catch (e) {
        return e as FileProblem;
      }
    })();
    expect(error).toBeInstanceOf(FileProblem);
    expect(error!.message).toMatch(/more than 4 MB of text in one piece/);
    expect(pushed).toBe(4); // the fifth megabyte is refused: 296 never read
  });
});
