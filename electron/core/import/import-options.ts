import { defaultLimits, type ImportLimits } from './file-check';

/** The knobs of the import service (tests pass small ones; the app takes the defaults). */
export interface ImportOptions extends ImportLimits {
  downloadTimeoutMs: number;
  /** A whole read (or errors file) in the worker. */
  readTimeoutMs: number;
  /** Old-generation heap of the worker. */
  workerHeapMb: number;
  /** Sync mode: how long to wait for the delivery services to give their numbers… */
  registrationWaitMs: number;
  /** …for uploads of at most this many orders; larger ones answer once their orders are stored. */
  registrationWaitMaxOrders: number;
  /** The create jobs of an import's orders wait while it writes (released at its end; at most this long). */
  jobHoldMs: number;
  /** Most orders per write transaction. */
  batchSize: number;
  /** A write transaction stops taking orders after this long (ms): the main thread is never held long. */
  writeSliceMs: number;
  /** Readers at once; more imports wait their turn. */
  maxConcurrentReads: number;
  /** Finished imports are forgotten after this many days; their files after sourceRetentionDays. */
  retentionDays: number;
  sourceRetentionDays: number;
  /**
   * Bytes of import files a company may keep (in the data folder, for errors files and runs of the wizard).
   * A new file that does not fit first makes room by forgetting the company's oldest finished files.
   */
  maxKeptSourceBytesPerCompany: number;
  /** Worker entry override (see worker-client.ts). */
  workerEntry?: URL;
}

export const defaultImportOptions: ImportOptions = {
  ...defaultLimits,
  downloadTimeoutMs: 30_000,
  readTimeoutMs: 5 * 60_000,
  workerHeapMb: 256,
  registrationWaitMs: 10_000,
  registrationWaitMaxOrders: 500,
  jobHoldMs: 5 * 60_000,
  batchSize: 1000,
  writeSliceMs: 15,
  maxConcurrentReads: 2,
  retentionDays: 30,
  sourceRetentionDays: 7,
  maxKeptSourceBytesPerCompany: 200 * 1024 * 1024,
};
