import { messageCatalog } from '../../../shared/messages';
import { FileProblem, inspectWorkbook } from './file-check';
import { writeZip } from './zip';

const workbook = (sheets: string, rels: string) =>
  writeZip([
    ['xl/workbook.xml', `<workbook xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets>${sheets}</sheets></workbook>`],
    ['xl/_rels/workbook.xml.rels', `<Relationships>${rels}</Relationships>`],
    ['xl/worksheets/sheet1.xml', '<worksheet><sheetData/></worksheet>'],
    ['xl/worksheets/sheet2.xml', '<worksheet><sheetData/></worksheet>'],
    ['xl/chartsheets/sheet1.xml', '<chartsheet/>'],
  ]);

const problem = (bytes: Buffer) => {
  try {
    inspectWorkbook(bytes);
  } catch (error) {
    if (error instanceof FileProblem) return `${error.kind}: ${error.message}`;
    throw error;
  }
  return 'ok';
};

describe('what a file is, before anything is unpacked', () => {
  it('finds the first visible worksheet through the workbook and its relationships', () => {
    const info = inspectWorkbook(
      workbook(
        '<sheet name="Скрытый" sheetId="1" state="hidden" r:id="rId1"/><sheet name="Заказы &amp; возвраты" sheetId="2" r:id="rId2"/>',
        '<Relationship Id="rId1" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Target="/xl/worksheets/sheet2.xml"/>',
      ),
    );
    expect(info).toMatchObject({ sheetName: 'Заказы & возвраты', sheetPath: 'xl/worksheets/sheet2.xml', sheetNames: ['Скрытый', 'Заказы & возвраты'] });
  });

  it('refuses a chart as the first sheet, and a workbook without sheets', () => {
    expect(problem(workbook('<sheet name="График" sheetId="1" r:id="rId1"/>', '<Relationship Id="rId1" Target="chartsheets/sheet1.xml"/>'))).toMatch(
      /^unsupported-sheet: The first sheet «График» is a chart/,
    );
    expect(problem(workbook('', ''))).toBe('no-sheet: The workbook has no sheets.');
  });

  it('refuses an archive that is not a workbook, and a file larger than the limit', () => {
    expect(problem(writeZip([['word/document.xml', '<w/>']]))).toMatch(/^not-xlsx: The file is an archive but not an Excel workbook/);
    expect(() => inspectWorkbook(Buffer.alloc(10), { ...tinyLimits(), maxFileBytes: 5 })).toThrow(/the largest workbook accepted/);
  });

  it('gives each refusal the key of the catalog message the window says it by', () => {
    const cfb = Buffer.alloc(512);
    Buffer.from('d0cf11e0a1b11ae1', 'hex').copy(cfb);
    const encrypted = Buffer.concat([cfb, Buffer.from('EncryptedPackage', 'utf16le')]);
    expect([
      keyOf(cfb),
      keyOf(encrypted),
      keyOf(Buffer.from('Номер;Город\n1;Москва\n')),
      keyOf(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d])),
      keyOf(writeZip([['word/document.xml', '<w/>']])),
      keyOf(workbook('<sheet name="График" sheetId="1" r:id="rId1"/>', '<Relationship Id="rId1" Target="chartsheets/sheet1.xml"/>')),
      keyOf(workbook('', '')),
    ]).toEqual(['import.problem.xls', 'import.problem.encrypted', 'import.problem.text', 'import.problem.notXlsx', 'import.problem.notXlsx', 'import.problem.chart', 'import.problem.noSheet']);
    expect(Object.hasOwn(messageCatalog, 'import.problem.xls')).toBe(true);
  });
});

function keyOf(bytes: Buffer) {
  try {
    inspectWorkbook(bytes);
  } catch (error) {
    if (error instanceof FileProblem) return error.key;
    throw error;
  }
  return 'ok';
}

function tinyLimits() {
  return { maxFileBytes: 1, maxUncompressedBytes: 1, bombEntryBytes: 1, maxRatio: 1, maxEntries: 1, maxDataRows: 1 };
}
