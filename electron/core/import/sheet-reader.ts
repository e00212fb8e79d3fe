import ExcelJS from 'exceljs';
import { Readable } from 'node:stream';
import type { CellValue, SheetRow } from './cells';
import { parseRange } from './columns';
import { FileProblem, type WorkbookInfo } from './file-check';

/**
 * Reads one sheet with exceljs' streaming WorkbookReader (runs in the import worker): rows go out in
 * batches as they are parsed, so memory stays flat whatever the file's length. exceljs' streaming reader
 * skips merged-cell ranges and the sheet's dimension, so the sheet's XML is tapped on its way in to find
 * them, and to count the bytes it really unpacks to (a zip bomb lies about its sizes).
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
}

export interface ReadSummary {
  sheetName: string;
  /** Rows sent, header included. */
  rowsSent: number;
  dataRows: number;
  lastRow: number;
  /** Rightmost column with a value in any row read. */
  maxColumn: number;
  merges: string[];
  /** The sheet's own `<dimension ref>` (A1:AN20001), when it has one. */
  dimension?: string;
  /** Reading stopped at stopAfterRows or toRow before the sheet's end. */
  stoppedEarly: boolean;
}

/** exceljs' own test for a date number format (utils.isDateFmt), for formula results it leaves as numbers. */
export function isDateFormat(format: string | undefined): boolean {
  if (!format) return false;
  const cleaned = format.replace(/\[[^\]]*]/g, '').replace(/"[^"]*"/g, '');
  return /[ymdhMsb]+/.test(cleaned);
}

const excelToDate = (serial: number) => new Date(Math.round((serial - 25569) * 86_400_000));

interface ExcelCell {
  value: unknown;
  numFmt?: string;
}

/** One exceljs cell value as a plain CellValue. */
export function plainValue(cell: ExcelCell): CellValue {
  const v = cell.value;
  if (v === null || v === undefined) return null;
  if (typeof v === 'string' || typeof v === 'boolean') return v;
  if (typeof v === 'number') return Number.isFinite(v) ? v : { error: '#NUM!' };
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? { error: '#DATE!' } : v;
  if (typeof v === 'object') {
    const o = v as Record<string, unknown>;
    if (Array.isArray(o.richText)) return (o.richText as { text?: string }[]).map((r) => r.text ?? '').join('');
    if ('formula' in o || 'sharedFormula' in o) {
      const result = o.result;
      const formula = String(o.formula ?? o.sharedFormula ?? '');
      if (result === undefined || result === null) return { formula };
      if (typeof result === 'number') {
        if (!Number.isFinite(result)) return { error: '#VALUE!' };
        return isDateFormat(cell.numFmt) ? excelToDate(result) : result;
      }
      if (typeof result === 'object' && result !== null && 'error' in result) return { error: String((result as { error: unknown }).error) };
      if (result instanceof Date || typeof result === 'string' || typeof result === 'boolean') return result;
      return { formula };
    }
    if ('error' in o) return { error: String(o.error) };
    if ('text' in o) return typeof o.text === 'string' ? o.text : plainValue({ value: o.text });
  }
  return String(v);
}

/** Watches the sheet's XML go by: merged ranges, the dimension, and the real unpacked size. */
function tapSheetXml(source: AsyncIterable<Buffer | string>, found: { merges: string[]; dimension?: string }, maxBytes: number, onDimension?: (ref: string) => void) {
  return (async function* () {
    let tail = '';
    let bytes = 0;
    for await (const chunk of source) {
      const text = typeof chunk === 'string' ? chunk : chunk.toString('latin1');
      bytes += text.length;
      if (bytes > maxBytes) {
        throw new FileProblem('zip-bomb', `The sheet unpacks to more than ${Math.round(maxBytes / 1024 / 1024)} MB; that is no ordinary table. It was not read.`);
      }
      const window = tail + text;
      for (const m of window.matchAll(/<(?:\w+:)?(mergeCell|dimension)\b[^>]*?\bref="([^"]+)"/g)) {
        if (m.index + m[0].length <= tail.length) continue; // seen in the previous chunk already
        if (m[1] === 'mergeCell') found.merges.push(m[2]);
        else if (found.dimension === undefined) {
          found.dimension = m[2];
          onDimension?.(m[2]);
        }
      }
      tail = window.slice(-256);
      yield chunk;
    }
  })();
}

/**
 * The file in 64 KiB pieces, as a file stream would give it: unzipper's parser concatenates what it has
 * buffered with every chunk it gets, so one chunk of the whole file would be copied again and again.
 */
function* chunksOf(bytes: Buffer, size = 64 * 1024) {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

/** Reads the sheet of `info` and calls onRows with each batch; resolves with the summary. Throws FileProblem. */
export async function readSheet(bytes: Buffer, info: WorkbookInfo, options: ReadOptions, onRows: (rows: SheetRow[]) => void): Promise<ReadSummary> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from(chunksOf(bytes)), {
    worksheets: 'emit',
    sharedStrings: 'cache',
    styles: 'cache', // date formats: a number formatted as a date becomes a Date
    hyperlinks: 'ignore',
    entries: 'ignore',
  });
  const sheetNumber = /sheet(\d+)\.xml$/.exec(info.sheetPath)![1];
  const found: { merges: string[]; dimension?: string } = { merges: [] };
  const summary: ReadSummary = { sheetName: info.sheetName, rowsSent: 0, dataRows: 0, lastRow: 0, maxColumn: 0, merges: found.merges, stoppedEarly: false };
  const batchRows = options.batchRows ?? 500;
  let batch: SheetRow[] = [];
  let sheetSeen = false;

  try {
    for await (const worksheet of reader) {
      const ws = worksheet as unknown as { name: string; id: number; iterator: AsyncIterable<Buffer | string>; [Symbol.asyncIterator](): AsyncIterator<ExcelJS.Row> };
      // exceljs names a sheet from the workbook when it knows it; the file number is the sure key
      const isOurs = ws.name === info.sheetName || ws.name === `Sheet${sheetNumber}`;
      if (!isOurs) continue;
      sheetSeen = true;
      ws.iterator = tapSheetXml(ws.iterator, found, options.maxSheetXmlBytes, (ref) => {
        // Excel writes the sheet's extent before its rows: a million rows are refused before the first is read
        const bottom = parseRange(ref)?.bottom ?? 0;
        const last = options.toRow === undefined ? bottom : Math.min(bottom, options.toRow);
        if (options.stopAfterRows === undefined && last - options.dataFrom + 1 > options.maxDataRows) {
          throw new FileProblem(
            'too-many-rows',
            `The sheet has more than ${options.maxDataRows.toLocaleString('en')} rows from row ${options.dataFrom} (it ends at row ${bottom.toLocaleString('en')}); split it into smaller files or set rowEnd.`,
          );
        }
        options.onDimension?.(ref);
      });
      for await (const row of ws as AsyncIterable<ExcelJS.Row>) {
        const r = row.number;
        if (r < options.fromRow) continue;
        if (options.toRow !== undefined && r > options.toRow) {
          summary.stoppedEarly = true;
          break;
        }
        if (r >= options.dataFrom && ++summary.dataRows > options.maxDataRows) {
          throw new FileProblem(
            'too-many-rows',
            `The sheet has more than ${options.maxDataRows.toLocaleString('en')} rows from row ${options.dataFrom}; split it into smaller files or set rowEnd.`,
          );
        }
        const cells: CellValue[] = [];
        row.eachCell({ includeEmpty: false }, (cell, column) => {
          const value = plainValue(cell as unknown as ExcelCell);
          if (value === null || value === '') return;
          while (cells.length < column - 1) cells.push(null);
          cells[column - 1] = value;
        });
        if (cells.length === 0) continue;
        summary.maxColumn = Math.max(summary.maxColumn, cells.length);
        summary.lastRow = r;
        batch.push({ row: r, cells });
        summary.rowsSent++;
        if (batch.length >= batchRows) {
          onRows(batch);
          batch = [];
        }
        if (options.stopAfterRows !== undefined && summary.rowsSent >= options.stopAfterRows) {
          summary.stoppedEarly = true;
          break;
        }
      }
      break; // only the first visible worksheet is imported
    }
  } catch (error) {
    if (error instanceof FileProblem) throw error;
    throw new FileProblem('unreadable', `The workbook cannot be read: ${(error as Error).message ?? String(error)}. Open it in Excel and save it again.`);
  }
  if (!sheetSeen) throw new FileProblem('no-sheet', `The sheet «${info.sheetName}» could not be found in the file.`);
  if (batch.length) onRows(batch);
  summary.dimension = found.dimension;
  return summary;
}
