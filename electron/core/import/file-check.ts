import { maxWorkbookBytes } from '../../../shared/contract/import';
import type { CoreMessageKey } from '../../../shared/messages';
import { entryData, readZipDirectory, ZipFormatError, type ZipEntry } from './zip';

/**
 * Looks at a file before anything decompresses it: is it an xlsx workbook at all, is it encrypted or an
 * old .xls, is it a zip bomb, which sheet holds the table. Every refusal is a FileProblem with a
 * sentence a shop owner can act on.
 */

export type FileProblemKind =
  | 'not-xlsx'
  | 'xls'
  | 'encrypted'
  | 'damaged'
  | 'too-large'
  | 'zip-bomb'
  | 'no-sheet'
  | 'unsupported-sheet'
  | 'too-many-rows'
  | 'merged-cells'
  | 'no-rows'
  | 'unreadable'
  | 'download';

/** What the window says of a refused file, by key (the English `message` stays the interface's detail). */
export type FileProblemKey = Extract<CoreMessageKey, `import.problem.${string}`>;

/** The file cannot be imported at all; nothing is created. */
export class FileProblem extends Error {
  constructor(
    readonly kind: FileProblemKind,
    message: string,
    readonly key?: FileProblemKey,
  ) {
    super(message);
    this.name = 'FileProblem';
  }
}

export interface ImportLimits {
  /** Largest workbook accepted (bytes of the xlsx file itself). */
  maxFileBytes: number;
  /** Largest total of the declared uncompressed sizes of the archive's entries. */
  maxUncompressedBytes: number;
  /** An entry this large that is compressed more than maxRatio : 1 is treated as a zip bomb. */
  bombEntryBytes: number;
  maxRatio: number;
  maxEntries: number;
  /** Most data rows (from rowStart) read from one sheet. */
  maxDataRows: number;
}

/**
 * The largest small part read whole (unpacked): workbook.xml, its relations, and — for an errors file —
 * styles.xml and [Content_Types].xml. The sheet itself is always streamed. A larger part is refused
 * before any order is created (see checkErrorsFileParts).
 */
export const maxSmallPartBytes = 16 * 1024 * 1024;

export const defaultLimits: ImportLimits = {
  maxFileBytes: maxWorkbookBytes,
  maxUncompressedBytes: 600 * 1024 * 1024,
  bombEntryBytes: 20 * 1024 * 1024,
  maxRatio: 250,
  maxEntries: 10_000,
  maxDataRows: 100_000,
};

export interface WorkbookInfo {
  /** Name of the sheet that is imported: the first visible worksheet. */
  sheetName: string;
  /** Its path in the archive, `xl/worksheets/sheetN.xml`. */
  sheetPath: string;
  /** Every sheet, in tab order. */
  sheetNames: string[];
  /** Declared uncompressed size of the sheet's XML. */
  sheetXmlBytes: number;
  /** Declared uncompressed size of xl/styles.xml (0 without one): an errors file rewrites it whole. */
  stylesXmlBytes: number;
}

const mb = (n: number) => `${Math.round(n / 1024 / 1024)} MB`;

const cfbMagic = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
const utf16 = (s: string) => Buffer.from(s, 'utf16le');

function xmlAttributes(tag: string): Record<string, string> {
  const attrs: Record<string, string> = {};
  for (const m of tag.matchAll(/([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) attrs[m[1]] = decodeXml(m[2] ?? m[3] ?? '');
  return attrs;
}

const namedEntities: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** XML text with its entities decoded; a character reference to no character (`&#99999999;`) is a damaged file. */
export const decodeXml = (s: string) =>
  s.replace(/&(lt|gt|amp|quot|apos|#\d+|#x[0-9a-f]+);/gi, (whole, e: string) => {
    const named = namedEntities[e.toLowerCase()];
    if (named) return named;
    const code = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
    if (!(code > 0 && code <= 0x10ffff) || (code >= 0xd800 && code <= 0xdfff)) {
      throw new FileProblem('damaged', `The workbook is damaged: ${whole.slice(0, 24)} is not a character. Open it in Excel and save it again.`, 'import.problem.unreadable');
    }
    return String.fromCodePoint(code);
  });

/**
 * Refuses errorsToFile for a workbook whose styles (rewritten whole in the errors file, unlike the sheet,
 * which is streamed) unpack past maxSmallPartBytes: before any order, not after.
 */
export function checkErrorsFileParts(info: Pick<WorkbookInfo, 'stylesXmlBytes'>) {
  if (info.stylesXmlBytes > maxSmallPartBytes) {
    throw new FileProblem(
      'too-large',
      `The workbook's formatting (xl/styles.xml) unpacks to ${mb(info.stylesXmlBytes)}; an errors file (errorsToFile) is made for workbooks whose formatting takes at most ${mb(maxSmallPartBytes)}. ` +
        'Upload it without errorsToFile (every failed row is still reported in resultItems), or save it again in Excel (which drops unused formats). Nothing was imported.',
      'import.problem.bomb',
    );
  }
}

/** Checks the file and finds the sheet to import; throws FileProblem (whatever is wrong in its parts). */
export function inspectWorkbook(bytes: Buffer, limits: ImportLimits = defaultLimits): WorkbookInfo {
  try {
    return inspect(bytes, limits);
  } catch (error) {
    if (error instanceof FileProblem) throw error;
    throw new FileProblem('damaged', `The workbook cannot be read: ${(error as Error).message ?? String(error)}. Open it in Excel and save it again.`, 'import.problem.unreadable');
  }
}

function inspect(bytes: Buffer, limits: ImportLimits): WorkbookInfo {
  if (bytes.length > limits.maxFileBytes) {
    throw new FileProblem('too-large', `The file is ${mb(bytes.length)}; the largest workbook accepted is ${mb(limits.maxFileBytes)}.`, 'import.problem.tooLarge');
  }
  if (bytes.subarray(0, 8).equals(cfbMagic)) {
    if (bytes.includes(utf16('EncryptionInfo')) || bytes.includes(utf16('EncryptedPackage'))) {
      throw new FileProblem('encrypted', 'The workbook is protected with a password. Open it in Excel, remove the password (File → Info → Protect Workbook) and save it again.', 'import.problem.encrypted');
    }
    throw new FileProblem('xls', 'This is an old Excel 97–2003 (.xls) file. Open it in Excel and save it as an .xlsx workbook.', 'import.problem.xls');
  }
  if (bytes.length < 4 || bytes.readUInt32LE(0) !== 0x04034b50) {
    if (bytes.length >= 4 && bytes.readUInt32LE(0) === 0x06054b50) throw new FileProblem('no-sheet', 'The file is an empty archive, not a workbook.', 'import.problem.noSheet');
    const head = bytes.subarray(0, 512).toString('utf8');
    const looksText = !/[\x00-\x08\x0e-\x1f]/.test(head);
    throw new FileProblem(
      'not-xlsx',
      looksText
        ? 'The file is text (CSV, HTML or similar), not an xlsx workbook. Open it in Excel and save it as .xlsx.'
        : 'The file is not an xlsx workbook. Save the table in Excel or LibreOffice as .xlsx and upload that file.',
      looksText ? 'import.problem.text' : 'import.problem.notXlsx',
    );
  }

  let entries: ZipEntry[];
  try {
    entries = readZipDirectory(bytes);
  } catch (error) {
    if (error instanceof ZipFormatError) throw new FileProblem('damaged', `The workbook cannot be read: ${error.message}.`, 'import.problem.unreadable');
    throw error;
  }
  if (entries.length > limits.maxEntries) throw new FileProblem('zip-bomb', `The file holds ${entries.length} parts; a workbook has far fewer. It was not read.`, 'import.problem.bomb');
  let total = 0;
  for (const entry of entries) {
    if (entry.flags & 1) throw new FileProblem('encrypted', 'The workbook is encrypted. Save it again without a password.', 'import.problem.encrypted');
    total += entry.size;
    const ratio = entry.compressedSize > 0 ? entry.size / entry.compressedSize : entry.size;
    if (entry.size > limits.bombEntryBytes && ratio > limits.maxRatio) {
      throw new FileProblem('zip-bomb', `The file unpacks to far more data than a workbook of its size can hold (${entry.name}: ${mb(entry.size)} from ${entry.compressedSize} bytes). It was not read.`, 'import.problem.bomb');
    }
  }
  if (total > limits.maxUncompressedBytes) {
    throw new FileProblem('zip-bomb', `The workbook unpacks to ${mb(total)}; the most accepted is ${mb(limits.maxUncompressedBytes)}. Split the table into smaller files.`, 'import.problem.bomb');
  }

  const byName = new Map(entries.map((e) => [e.name, e]));
  const workbookEntry = byName.get('xl/workbook.xml');
  if (!workbookEntry) throw new FileProblem('not-xlsx', 'The file is an archive but not an Excel workbook (it has no xl/workbook.xml). Save the table as .xlsx.', 'import.problem.notXlsx');
  let workbookXml: string;
  let relsXml = '';
  try {
    workbookXml = entryData(bytes, workbookEntry, maxSmallPartBytes).toString('utf8');
    const rels = byName.get('xl/_rels/workbook.xml.rels');
    if (rels) relsXml = entryData(bytes, rels, maxSmallPartBytes).toString('utf8');
  } catch (error) {
    if (error instanceof ZipFormatError) throw new FileProblem('damaged', `The workbook cannot be read: ${error.message}.`, 'import.problem.unreadable');
    throw error;
  }

  const targets = new Map<string, string>();
  for (const m of relsXml.matchAll(/<(?:\w+:)?Relationship\b([^>]*)>/g)) {
    const a = xmlAttributes(m[1]);
    if (a.Id && a.Target) targets.set(a.Id, a.Target.startsWith('/') ? a.Target.slice(1) : `xl/${a.Target}`.replace(/\/\.\//g, '/'));
  }
  const sheets = [...workbookXml.matchAll(/<(?:\w+:)?sheet\b([^>]*)>/g)].map((m) => {
    const a = xmlAttributes(m[1]);
    const rid = Object.entries(a).find(([k]) => k === 'r:id' || k.endsWith(':id'))?.[1];
    return { name: a.name ?? '', state: a.state ?? 'visible', path: rid ? targets.get(rid) : undefined };
  });
  if (sheets.length === 0) throw new FileProblem('no-sheet', 'The workbook has no sheets.', 'import.problem.noSheet');
  const sheet = sheets.find((s) => s.state === 'visible') ?? sheets[0];
  if (!sheet.path || !byName.has(sheet.path)) {
    throw new FileProblem('no-sheet', `The sheet «${sheet.name}» has no data in the file (the workbook is damaged). Open and save it in Excel.`, 'import.problem.noSheet');
  }
  if (!/^xl\/worksheets\/sheet\d+\.xml$/.test(sheet.path)) {
    const isChart = /chartsheets\//.test(sheet.path);
    throw new FileProblem(
      'unsupported-sheet',
      isChart
        ? `The first sheet «${sheet.name}» is a chart, not a table. Move the table to the first sheet.`
        : `The sheet «${sheet.name}» is stored in an unusual way (${sheet.path}). Open the file in Excel and save it again.`,
      isChart ? 'import.problem.chart' : 'import.problem.unreadable',
    );
  }
  return { sheetName: sheet.name, sheetPath: sheet.path, sheetNames: sheets.map((s) => s.name), sheetXmlBytes: byName.get(sheet.path)!.size, stylesXmlBytes: byName.get('xl/styles.xml')?.size ?? 0 };
}
