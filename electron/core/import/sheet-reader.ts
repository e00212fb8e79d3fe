import { StringDecoder } from 'node:string_decoder';
import type { CellValue, SheetRow } from './cells';
import { maxColumn, parseRange } from './columns';
import { FileProblem, type WorkbookInfo } from './file-check';
import { readWorkbookParts, type WorkbookParts } from './workbook-parts';
import { attr, scanXml, xmlText, type Tag } from './xml-scan';
import { inflatedChunks, rawEntryData, readZipDirectory, ZipFormatError } from './zip';

/**
 * Reads one sheet (runs in the import worker): the sheet's XML is inflated as a stream and scanned as it
 * comes, rows go out in batches, so memory stays flat whatever the file's length. No DOM and no parser
 * library on this path: a hand-written scanner over the text (xml-scan.ts) reading only what the import
 * needs — cell values (shared and inline strings, numbers, dates by their style, booleans, errors,
 * formulas by their saved result), merged ranges, the sheet's `<dimension>` — and counting the bytes the
 * sheet really unpacks to (a zip bomb lies about its sizes).
 *
 * Measured on the benchmark's 20,000-row workbook (2-core machine): this reader ≈ 0.35 s where exceljs'
 * streaming WorkbookReader took ≈ 1.9 s for the same cells (sheet-reader.test.ts checks the two agree).
 */

export interface ReadOptions {
  /** First row sent (the header row, when there is one). */
  fromRow: number;
  /** First data row: rows from here on count towards maxDataRows. */
  dataFrom: number;
  /** Last row read; reading stops there. */
  toRow?: number;
  maxDataRows: number;
  /** Stop after sending this many rows (preview). */
  stopAfterRows?: number;
  batchRows?: number;
  /** Most bytes the sheet's XML may unpack to. */
  maxSheetXmlBytes: number;
  /** Called once with the sheet's `<dimension ref>` as soon as it goes by (an early row count). */
  onDimension?: (ref: string) => void;
  /** Flow control: between pieces of the sheet, a promise to wait for before reading on (or null: go on). */
  room?: () => Promise<void> | null;
  /**
   * The columns whose cells are kept (1-based; the mapped ones): any other cell is skipped as it is
   * read, so a stray cell in column XFD costs nothing. Undefined: every column up to maxPreviewColumns.
   */
  columns?: number[];
}

/** Columns shown by a preview (columns further right are not read into it). */
export const maxPreviewColumns = 256;
/**
 * Longest run of sheet XML without a tag end (`>`) the scanner keeps while waiting for the rest: far more
 * than any tag or cell text of a real sheet (a cell holds at most 32,767 characters), far less than memory.
 */
export const maxPendingXmlChars = 4 * 1024 * 1024;
/** A batch of rows goes to the main thread once it holds this many bytes (estimated), however few rows. */
export const maxBatchBytes = 1024 * 1024;

/** A rough size of a cell's value in memory, for byte-counted batches and flow control. */
export const cellBytes = (v: CellValue) => (typeof v === 'string' ? 24 + 2 * v.length : 16);

export interface ReadSummary {
  sheetName: string;
  /** Rows sent, header included. */
  rowsSent: number;
  dataRows: number;
  lastRow: number;
  /** Rightmost column with a value in any row read (kept or not). */
  maxColumn: number;
  merges: string[];
  /** The sheet's own `<dimension ref>` (A1:AN20001), when it has one. */
  dimension?: string;
  /** Reading stopped at stopAfterRows or toRow before the sheet's end. */
  stoppedEarly: boolean;
  /** Bytes of sheet XML really unpacked (up to where reading stopped). */
  unpackedBytes: number;
}

export { isDateFormat } from './workbook-parts';

/** Column number (1-based) of a cell reference's letters: "AB12" → 28. 0 when it has none. */
function columnOf(ref: string): number {
  let n = 0;
  for (let i = 0; i < ref.length; i++) {
    const ch = ref.charCodeAt(i);
    if (ch >= 65 && ch <= 90) n = n * 26 + ch - 64;
    else if (ch >= 97 && ch <= 122) n = n * 26 + ch - 96;
    else break;
  }
  return n;
}

// The attributes of the cell tag just read (r, s, t), set by readCellAttributes: one pass over the tag, no
// objects made — it runs for every cell (attr() three times cost a third of the reader's time).
let cellRef: string | undefined;
let cellStyle: string | undefined;
let cellType: string | undefined;

function readCellAttributes(attrs: string) {
  cellRef = cellStyle = cellType = undefined;
  const n = attrs.length;
  let i = 0;
  while (i < n) {
    const eq = attrs.indexOf('=', i);
    if (eq < 0) return;
    let q = eq + 1;
    while (attrs.charCodeAt(q) === 32) q++;
    const quote = attrs[q];
    if (quote !== '"' && quote !== "'") return;
    const end = attrs.indexOf(quote, q + 1);
    if (end < 0) return;
    const name = attrs.slice(i, eq).trim();
    if (name === 'r') cellRef = attrs.slice(q + 1, end);
    else if (name === 's') cellStyle = attrs.slice(q + 1, end);
    else if (name === 't') cellType = attrs.slice(q + 1, end);
    i = end + 1;
  }
}

const tooLongText = () =>
  new FileProblem('damaged', `The sheet holds more than ${maxPendingXmlChars / 1024 / 1024} MB of text in one piece (no tag ends in it); that is no spreadsheet. It was not read.`, 'import.problem.unreadable');

/** Stops the scan early (rowEnd reached, preview full); not an error. */
class StopReading extends Error {}

/** A number cell: a date when its style shows dates. (No closures here: this runs for every cell.) */
function numberCell(parts: WorkbookParts, style: number, text: string, bad: string): CellValue {
  const n = Number(text);
  if (!Number.isFinite(n) || text.trim() === '') return { error: bad };
  if (parts.dateStyles[style] === true) {
    const d = new Date(Math.round((n - 25569 + (parts.date1904 ? 1462 : 0)) * 86_400_000));
    return Number.isNaN(d.getTime()) ? { error: '#DATE!' } : d;
  }
  return n;
}

/**
 * A cell's text as a string of its own. The scanner's text is a slice of the piece of the sheet it came
 * in, and V8 keeps a long enough slice (13 characters and up) as a view of that piece: one kept clientNumber
 * (the mapper remembers each, to find one used twice) kept a whole piece of XML alive, and 100,000 of them
 * the whole sheet — 250 MB of worker heap for the hostile wide sheet. Prepending a character makes V8
 * copy the text out (flattening) before slicing it again.
 */
const own = (text: string) => (text.length < 13 ? text : ` ${text}`.slice(1));

/** The cell as the import sees it, from its XML parts. */
function cellValue(parts: WorkbookParts, type: string | undefined, style: number, value: string | undefined, formula: string | undefined): CellValue {
  if (formula !== undefined) {
    // a formula counts by the result Excel saved with it
    if (value === undefined) return { formula };
    if (type === 'str' || type === 'inlineStr') return own(xmlText(value));
    if (type === 'e') return { error: xmlText(value) };
    if (type === 'b') return value.trim() !== '0';
    if (value.trim() === '') return { formula };
    return numberCell(parts, style, value, '#VALUE!');
  }
  if (value === undefined) return null;
  switch (type) {
    case 's':
      return parts.sharedStrings[Number(value)] ?? null;
    case 'inlineStr':
    case 'str':
      return own(xmlText(value));
    case 'e':
      return { error: xmlText(value) };
    case 'b':
      return value.trim() !== '0';
    case 'd': {
      const d = new Date(value.trim());
      return Number.isNaN(d.getTime()) ? { error: '#DATE!' } : d;
    }
    default:
      return numberCell(parts, style, value, '#NUM!');
  }
}

/**
 * The sheet's rows, parsed from its XML as it arrives. `push` takes text in any pieces; rows are
 * handed to `onRow` complete, in order; `end` flushes the rest.
 */
export function createSheetScanner(
  parts: WorkbookParts,
  handlers: { onRow: (row: SheetRow, bytes: number) => void; onDimension: (ref: string) => void; onMerge: (ref: string) => void },
  columns?: number[],
) {
  // kept[c]: the cells of column c are kept (an array of flags: one look-up per cell)
  const kept = new Uint8Array(maxColumn + 2);
  if (!columns) kept.fill(1, 1, maxPreviewColumns + 1);
  else for (const c of columns) if (c >= 1 && c <= maxColumn) kept[c] = 1;
  let pending = '';
  let rowBytes = 0;
  /** Rightmost column with a value, kept or not. */
  let rightmost = 0;
  let rowNumber = 0;
  let inSheetData = false;
  let cells: CellValue[] | null = null;
  let column = 0;
  // the cell being read
  let cType: string | undefined;
  let cStyle = 0;
  let value: string | undefined;
  let formula: string | undefined;
  /** Where text goes: 0 nowhere, 1 the value, 2 the formula. */
  let capture = 0;
  let inPhonetic = false;
  /** Shared formulas' text by group (si), for cells that only name the group. */
  const shared = new Map<string, string>();
  let sharedIndex: string | undefined;

  const endRow = () => {
    if (cells) {
      // empty rows go out too: they count towards the row limit, as exceljs counted them
      handlers.onRow({ row: rowNumber, cells }, rowBytes + 8 * cells.length);
    }
    cells = null;
  };

  const onTag = (tag: Tag) => {
    switch (tag.name) {
      case 'c':
        if (!cells) return;
        if (tag.closing) {
          if (kept[column] === 1) {
            const v = cellValue(parts, cType, cStyle, value, formula);
            if (v !== null && v !== '') {
              // cells before it are padded with nulls (counted in the row's bytes below)
              while (cells.length < column - 1) cells.push(null);
              cells[column - 1] = v;
              rowBytes += cellBytes(v);
              if (column > rightmost) rightmost = column;
            }
          } else if (value !== undefined && value !== '' && column > rightmost) rightmost = column;
          capture = 0;
          return;
        }
        {
          readCellAttributes(tag.attrs);
          column = cellRef ? columnOf(cellRef) : column + 1;
          if (column > maxColumn) {
            throw new FileProblem('damaged', `The sheet has a cell beyond column XFD, the last column of Excel (row ${rowNumber}). Open the file in Excel and save it again.`, 'import.problem.unreadable');
          }
          cType = cellType;
          cStyle = cellStyle ? Number(cellStyle) : 0;
          value = undefined;
          formula = undefined;
          if (tag.selfClosing) capture = 0;
        }
        return;
      case 'v':
        if (!cells) return;
        if (tag.closing) capture = 0;
        else {
          value = '';
          capture = tag.selfClosing ? 0 : 1;
        }
        return;
      case 't':
        // inline string text (<is><t>…</t></is>, rich runs <is><r><t>…</t></r></is>): runs are joined
        if (!cells || inPhonetic) return;
        if (tag.closing) capture = 0;
        else {
          value ??= '';
          capture = tag.selfClosing ? 0 : 1;
        }
        return;
      case 'rPh':
        inPhonetic = !tag.closing && !tag.selfClosing;
        return;
      case 'f':
        if (!cells) return;
        if (tag.closing) {
          if (sharedIndex !== undefined && formula) shared.set(sharedIndex, formula); // the group's first cell writes its text
          capture = 0;
          return;
        }
        sharedIndex = attr(tag.attrs, 't') === 'shared' ? attr(tag.attrs, 'si') : undefined;
        if (tag.selfClosing) {
          formula = sharedIndex !== undefined ? (shared.get(sharedIndex) ?? '') : '';
          capture = 0;
        } else {
          formula = '';
          capture = 2;
        }
        return;
      case 'row':
        if (!inSheetData) return;
        if (tag.closing) {
          endRow();
          return;
        }
        {
          const r = attr(tag.attrs, 'r');
          rowNumber = r ? Number(r) : rowNumber + 1;
          cells = [];
          rowBytes = 32;
          column = 0;
          if (tag.selfClosing) endRow();
        }
        return;
      case 'sheetData':
        inSheetData = !tag.closing && !tag.selfClosing;
        return;
      case 'dimension': {
        const ref = attr(tag.attrs, 'ref');
        if (ref && !tag.closing) handlers.onDimension(ref);
        return;
      }
      case 'mergeCell': {
        const ref = attr(tag.attrs, 'ref');
        if (ref && !tag.closing) handlers.onMerge(ref);
        return;
      }
      default:
        return;
    }
  };
  const onText = (raw: string) => {
    // a skipped column's text is not gathered (only whether it has any)
    if (capture === 1) value = kept[column] === 1 || value === '' ? value + raw : value;
    else if (capture === 2 && kept[column] === 1) formula += xmlText(raw);
  };

  return {
    /** Rightmost column with a value in the rows scanned, kept or not. */
    get rightmost() {
      return rightmost;
    },
    /**
     * Scans what has arrived up to the last complete tag; the rest waits for the next piece. Only the new
     * piece is searched for a tag end, and the waiting text is capped: text with no `>` costs its length once.
     */
    push(text: string) {
      const end = text.lastIndexOf('>');
      if (end < 0) {
        pending += text;
        if (pending.length > maxPendingXmlChars) {
          throw tooLongText();
        }
        return;
      }
      const whole = pending + text;
      const stop = scanXml(whole, 0, pending.length + end + 1, onTag, onText);
      pending = whole.slice(stop);
      if (pending.length > maxPendingXmlChars) throw tooLongText();
    },
    end() {
      if (pending.trim()) scanXml(pending, 0, pending.length, onTag, onText);
      pending = '';
      endRow();
    },
  };
}

/** Reads the sheet of `info` and calls onRows with each batch; resolves with the summary. Throws FileProblem. */
export async function readSheet(bytes: Buffer, info: WorkbookInfo, options: ReadOptions, onRows: (rows: SheetRow[], bytes: number) => void): Promise<ReadSummary> {
  const summary: ReadSummary = { sheetName: info.sheetName, rowsSent: 0, dataRows: 0, lastRow: 0, maxColumn: 0, merges: [], stoppedEarly: false, unpackedBytes: 0 };
  const batchRows = options.batchRows ?? 500;
  let batch: SheetRow[] = [];
  let batchBytes = 0;

  let raw: Buffer;
  let method: number;
  let declaredSize: number;
  let parts: WorkbookParts;
  try {
    const entries = readZipDirectory(bytes);
    const entry = entries.find((e) => e.name === info.sheetPath);
    if (!entry) throw new FileProblem('no-sheet', `The sheet «${info.sheetName}» could not be found in the file.`, 'import.problem.noSheet');
    if (entry.method !== 0 && entry.method !== 8) throw new ZipFormatError(`entry ${entry.name} uses an unsupported compression method ${entry.method}`);
    raw = rawEntryData(bytes, entry);
    method = entry.method;
    declaredSize = entry.size;
    parts = readWorkbookParts(bytes, entries, options.maxSheetXmlBytes);
  } catch (error) {
    if (error instanceof FileProblem) throw error;
    throw new FileProblem('unreadable', `The workbook cannot be read: ${(error as Error).message ?? String(error)}. Open it in Excel and save it again.`, 'import.problem.unreadable');
  }

  const scanner = createSheetScanner(parts, {
    onDimension(ref) {
      if (summary.dimension !== undefined) return;
      summary.dimension = ref;
      // Excel writes the sheet's extent before its rows: a million rows are refused before the first is read
      const bottom = parseRange(ref)?.bottom ?? 0;
      const last = options.toRow === undefined ? bottom : Math.min(bottom, options.toRow);
      if (options.stopAfterRows === undefined && last - options.dataFrom + 1 > options.maxDataRows) {
        throw new FileProblem(
          'too-many-rows',
          `The sheet has more than ${options.maxDataRows.toLocaleString('en')} rows from row ${options.dataFrom} (it ends at row ${bottom.toLocaleString('en')}); split it into smaller files or set rowEnd.`,
          'import.problem.tooManyRows',
        );
      }
      options.onDimension?.(ref);
    },
    onMerge: (ref) => summary.merges.push(ref),
    onRow(row, bytes) {
      const r = row.row;
      if (r < options.fromRow) return;
      if (options.toRow !== undefined && r > options.toRow) {
        summary.stoppedEarly = true;
        throw new StopReading();
      }
      if (r >= options.dataFrom && ++summary.dataRows > options.maxDataRows) {
        throw new FileProblem(
          'too-many-rows',
          `The sheet has more than ${options.maxDataRows.toLocaleString('en')} rows from row ${options.dataFrom}; split it into smaller files or set rowEnd.`,
          'import.problem.tooManyRows',
        );
      }
      if (row.cells.length === 0) return;
      summary.lastRow = r;
      batch.push(row);
      batchBytes += bytes;
      summary.rowsSent++;
      if (batch.length >= batchRows || batchBytes >= maxBatchBytes) {
        onRows(batch, batchBytes);
        batch = [];
        batchBytes = 0;
      }
      if (options.stopAfterRows !== undefined && summary.rowsSent >= options.stopAfterRows) {
        summary.stoppedEarly = true;
        throw new StopReading();
      }
    },
  }, options.columns);

  const decoder = new StringDecoder('utf8');
  let unpacked = 0;
  const take = (chunk: Buffer) => {
    unpacked += chunk.length;
    if (unpacked > declaredSize) {
      throw new FileProblem('zip-bomb', `The sheet unpacks to more than the ${declaredSize.toLocaleString('en')} bytes its file says it holds; the file lies about its size. It was not read.`, 'import.problem.bomb');
    }
    if (unpacked > options.maxSheetXmlBytes) {
      throw new FileProblem('zip-bomb', `The sheet unpacks to more than ${Math.round(options.maxSheetXmlBytes / 1024 / 1024)} MB; that is no ordinary table. It was not read.`, 'import.problem.bomb');
    }
    scanner.push(decoder.write(chunk));
  };
  try {
    for await (const chunk of inflatedChunks(raw, method)) {
      take(chunk);
      await options.room?.();
    }
    scanner.push(decoder.end());
    scanner.end();
  } catch (error) {
    if (!(error instanceof StopReading)) {
      if (error instanceof FileProblem) throw error;
      throw new FileProblem('unreadable', `The workbook cannot be read: ${(error as Error).message ?? String(error)}. Open it in Excel and save it again.`, 'import.problem.unreadable');
    }
  }
  if (batch.length) onRows(batch, batchBytes);
  summary.maxColumn = scanner.rightmost;
  summary.unpackedBytes = unpacked;
  return summary;
}
