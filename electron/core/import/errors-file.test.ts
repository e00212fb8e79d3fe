import ExcelJS from 'exceljs';
import { writeErrorsFile, type RowMark } from './errors-file';
import { inspectWorkbook } from './file-check';
import { entryData, readZipDirectory, writeZip } from './zip';

// The errors file written as a stream, on sheets Excel would not write but other programs do: rows
// missing or self-closing, a namespace prefix, no styles at all, a cell in XFD. Read back with exceljs.

const main = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const rel = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

function workbook(sheetXml: string, extra: [string, string][] = []): Buffer {
  return writeZip([
    ['[Content_Types].xml', '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>'],
    ['_rels/.rels', `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${rel}/officeDocument" Target="xl/workbook.xml"/></Relationships>`],
    ['xl/workbook.xml', `<?xml version="1.0"?><workbook xmlns="${main}" xmlns:r="${rel}"><sheets><sheet name="Orders" sheetId="1" r:id="rId1"/></sheets></workbook>`],
    ['xl/_rels/workbook.xml.rels', `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${rel}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`],
    ['xl/worksheets/sheet1.xml', sheetXml],
    ...extra,
  ]);
}

async function errorsFileOf(bytes: Buffer, marks: RowMark[], headerRow?: number) {
  const pieces: Buffer[] = [];
  await writeErrorsFile(bytes, { info: inspectWorkbook(bytes), marks, headerRow, title: 'Errors' }, (piece) => pieces.push(piece));
  const out = Buffer.concat(pieces);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(out as unknown as ArrayBuffer);
  return { out, sheet: wb.worksheets[0] };
}

const red = 'FFFFC7CE';
const fillOf = (cell: ExcelJS.Cell) => (cell.fill?.type === 'pattern' ? (cell.fill.fgColor as { argb?: string } | undefined)?.argb : undefined);

describe('the errors file, written as a stream', () => {
  it('marks rows the sheet lacks or writes self-closing, in order, in a workbook without styles (which it adds and registers)', async () => {
    const sheet =
      `<?xml version="1.0"?><worksheet xmlns="${main}"><sheetData>` +
      '<row r="1"><c r="A1" t="inlineStr"><is><t>name</t></is></c><c r="B1" t="inlineStr"><is><t>phone</t></is></c></row>' +
      '<row r="2"><c r="A2" t="inlineStr"><is><t>Ann</t></is></c><c r="B2"><v>1</v></c></row>' +
      '<row r="3"/>' +
      '<row r="6"><c r="B6"><v>6</v></c></row>' +
      '</sheetData></worksheet>';
    const { out, sheet: ws } = await errorsFileOf(workbook(sheet), [
      { row: 3, messages: ['row three'] },
      { row: 4, messages: ['row four, absent'] },
      { row: 6, messages: ['row six'] },
      { row: 9, messages: ['after the last row'] },
    ], 1);
    expect(ws.getCell('C1').value).toBe('Errors');
    expect(ws.getCell('C2').value).toBeNull();
    expect(fillOf(ws.getCell('A2'))).toBeUndefined();
    for (const [r, text] of [[3, 'row three'], [4, 'row four, absent'], [6, 'row six'], [9, 'after the last row']] as const) {
      expect(ws.getCell(`C${r}`).value).toBe(text);
      expect(fillOf(ws.getCell(`A${r}`)), `A${r}`).toBe(red);
      expect(fillOf(ws.getCell(`B${r}`)), `B${r}`).toBe(red);
    }
    expect(ws.getCell('B6').value).toBe(6);
    const names = readZipDirectory(out).map((e) => e.name);
    expect(names).toContain('xl/styles.xml');
    const types = readZipDirectory(out).find((e) => e.name === '[Content_Types].xml')!;
    expect(entryData(out, types, 1 << 20).toString()).toContain('/xl/styles.xml');
  });

  it('a sheet that uses column XFD gets its errors in XFD (the stray cell gives its place)', async () => {
    const sheet =
      `<?xml version="1.0"?><worksheet xmlns="${main}"><dimension ref="A1:XFD2"/><sheetData>` +
      '<row r="1"><c r="A1" t="inlineStr"><is><t>name</t></is></c></row>' +
      '<row r="2"><c r="A2" t="inlineStr"><is><t>Bob</t></is></c><c r="XFD2" t="inlineStr"><is><t>stray</t></is></c></row>' +
      '</sheetData></worksheet>';
    const { sheet: ws } = await errorsFileOf(workbook(sheet), [{ row: 2, messages: ['bad'] }], 1);
    expect(ws.getCell('XFD2').value).toBe('bad');
    expect(ws.getCell('XFD1').value).toBe('Errors');
    expect(fillOf(ws.getCell('A2'))).toBe(red);
  });

  it('writes what it adds with the sheet\'s namespace prefix', async () => {
    const sheet =
      `<?xml version="1.0"?><x:worksheet xmlns:x="${main}"><x:sheetData>` +
      '<x:row r="1"><x:c r="A1" t="inlineStr"><x:is><x:t>name</x:t></x:is></x:c><x:c r="C1"><x:v>1</x:v></x:c></x:row>' +
      '<x:row r="2"><x:c r="C2"><x:v>2</x:v></x:c></x:row>' +
      '</x:sheetData></x:worksheet>';
    const pieces: Buffer[] = [];
    const bytes = workbook(sheet);
    await writeErrorsFile(bytes, { info: inspectWorkbook(bytes), marks: [{ row: 2, messages: ['bad'] }, { row: 3, messages: ['gone'] }], headerRow: 1, title: 'Errors' }, (piece) => pieces.push(piece));
    const out = Buffer.concat(pieces);
    const xml = entryData(out, readZipDirectory(out).find((e) => e.name === 'xl/worksheets/sheet1.xml')!, 1 << 24).toString();
    expect(xml).not.toMatch(/<\/?(c|row|is|t|cols|col)\b/); // nothing unprefixed
    expect(xml).toContain('<x:cols><x:col min="4" max="4"');
    expect(xml).toMatch(/<x:row r="2"><x:c r="A2" s="\d+"\/><x:c r="B2" s="\d+"\/><x:c r="C2" s="\d+"><x:v>2<\/x:v><\/x:c><x:c r="D2" s="\d+" t="inlineStr"><x:is><x:t xml:space="preserve">bad<\/x:t>/);
    expect(xml).toMatch(/<x:row r="3"><x:c r="A3" s="\d+"\/>.*gone<\/x:t><\/x:is><\/x:c><\/x:row><\/x:sheetData>/);
  });
});
