import type { SheetRow } from './cells';
import type { RowMark } from './errors-file';
import type { FileProblemKind, ImportLimits, WorkbookInfo } from './file-check';
import type { ReadOptions, ReadSummary } from './sheet-reader';

/** What the main thread asks of the import worker (as workerData): one task per worker. */
export type WorkerTask =
  | {
      kind: 'read';
      bytes: Uint8Array;
      limits: ImportLimits;
      read: Omit<ReadOptions, 'maxDataRows' | 'maxSheetXmlBytes' | 'onDimension' | 'room'>;
      /** Flow control: at most this many bytes of rows (estimated) unanswered by an `ack` (none: as fast as it reads). */
      windowBytes?: number;
    }
  /** The errors file, written to `outPath` as it is made (never whole in memory). */
  | { kind: 'errors-file'; bytes: Uint8Array; limits: ImportLimits; marks: RowMark[]; headerRow?: number; title: string; outPath: string };

/** What the worker answers, in order: workbook, rows…, done | file; or problem / crash at any point. */
export type WorkerMessage =
  | { type: 'workbook'; info: WorkbookInfo }
  | { type: 'dimension'; ref: string }
  | { type: 'rows'; rows: SheetRow[] }
  | { type: 'done'; summary: ReadSummary }
  | { type: 'file'; size: number }
  | { type: 'problem'; kind: FileProblemKind; message: string }
  | { type: 'crash'; message: string; code?: string };

/** What the main thread tells the worker during a task: the oldest batch of rows not yet taken has been (flow control). */
export type MainMessage = { type: 'ack' };
