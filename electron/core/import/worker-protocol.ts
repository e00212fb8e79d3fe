import type { SheetRow } from './cells';
import type { RowMark } from './errors-file';
import type { FileProblemKey, FileProblemKind, ImportLimits, WorkbookInfo } from './file-check';
import type { CompiledSettings } from './settings';
import type { ReadOptions, ReadSummary } from './sheet-reader';
import type { LocateAsk, MappedOrder } from './worker-mapping';
import type { RowFieldError } from './row-mapper';

/**
 * The workbook a task works on: its bytes, or the file it is kept in (import-store.ts), which the worker reads itself so
 * the main thread copies none of it (a 30 MB workbook's first copy into a message held the main thread 420-470 ms
 * at load 9.6).
 */
export type TaskSource = { bytes: Uint8Array; file?: undefined } | { file: string; bytes?: undefined };

/**
 * The worker's source: the file the workbook is kept in when there is one (read there, none copied to it), else the
 * bytes. A run passes its job (bytes and the kept file); the errors file made later passes the kept file alone.
 */
export const taskSource = (from: { bytes: Uint8Array; file?: string } | { file: string; bytes?: undefined }): TaskSource =>
  from.file !== undefined ? { file: from.file } : { bytes: (from as { bytes: Uint8Array }).bytes };

/** What the main thread asks of the import worker (as workerData): one task per worker. */
export type WorkerTask = (
  | {
      kind: 'read';
      limits: ImportLimits;
      read: Omit<ReadOptions, 'maxDataRows' | 'maxSheetXmlBytes' | 'onDimension' | 'room'>;
      /** Flow control: at most this many bytes of rows (estimated) unanswered by an `ack` (none: as fast as it reads). */
      windowBytes?: number;
      /**
       * Map the rows to orders here (worker-mapping.ts): `orders` batches instead of `rows`, and `done`
       * only once every batch has been acknowledged (until then the main thread may ask to `locate`).
       */
      orders?: CompiledSettings;
    }
  /** The errors file, written to `outPath` as it is made (never whole in memory). */
  | { kind: 'errors-file'; limits: ImportLimits; marks: RowMark[]; headerRow?: number; title: string; outPath: string }
) &
  TaskSource;

/** What the worker answers, in order: workbook, rows… (or orders…), done | file; or problem / crash at any point. */
export type WorkerMessage =
  | { type: 'workbook'; info: WorkbookInfo }
  | { type: 'dimension'; ref: string }
  | { type: 'rows'; rows: SheetRow[] }
  /** The orders `rows` rows of the sheet completed. */
  | { type: 'orders'; orders: MappedOrder[]; rows: number }
  /** The answer to `locate` `id`: each ask's errors at their cells. */
  | { type: 'located'; id: number; errors: RowFieldError[][] }
  | { type: 'done'; summary: ReadSummary }
  | { type: 'file'; size: number }
  | { type: 'problem'; kind: FileProblemKind; message: string; key?: FileProblemKey }
  | { type: 'crash'; message: string; code?: string };

/**
 * What the main thread tells the worker during a task: the oldest batch not yet taken has been (flow
 * control); or, for orders mapped in the worker, where the errors of its own checks are in the sheet.
 */
export type MainMessage = { type: 'ack' } | { type: 'locate'; id: number; asks: LocateAsk[] };
