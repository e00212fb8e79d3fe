import type { UploadSettings } from '../../../../shared/schemas/upload';

/**
 * Spreadsheet imports: one per file, its progress, and what became of each of its orders. The files
 * themselves are kept in the data folder (import/import-store.ts); the store knows their paths only.
 * Times are epoch milliseconds.
 */

export type ImportStatus = 'staged' | 'queued' | 'reading' | 'creating' | 'registering' | 'done' | 'failed' | 'canceled';

export interface ImportRecord {
  id: number;
  companyId: number;
  origin: 'api' | 'desktop';
  mode: 'sync' | 'async';
  status: ImportStatus;
  fileName: string | null;
  fileSize: number;
  /** The file, relative to the data folder; null when it is no longer kept. */
  sourcePath: string | null;
  /** The errors file of an import made by a version before 0014, which kept it in the database. */
  legacyErrorsFile: Buffer | null;
  /** null: not chosen yet (a staged file), or no longer readable. */
  settings: UploadSettings | null;
  errorsToFile: boolean;
  asDrafts: boolean;
  /** The language of the window that started the run, for its errors file; null: the app's setting. */
  language: 'ru' | 'en' | null;
  total: number;
  done: number;
  created: number;
  failed: number;
  /** The error body the import ended with. */
  error: unknown;
  createdAt: number;
  updatedAt: number;
  finishedAt: number | null;
}

export type NewImportRecord = Pick<ImportRecord, 'companyId' | 'origin' | 'mode' | 'status' | 'fileName' | 'fileSize' | 'settings' | 'errorsToFile' | 'asDrafts'> & {
  language?: ImportRecord['language'];
  at: number;
};

/** What a run changes of its import. */
export type ImportProgress = Partial<Pick<ImportRecord, 'status' | 'total' | 'done' | 'created' | 'failed' | 'error' | 'finishedAt' | 'settings'>>;

/** What became of one order of an import: the order (with its number and status now), the draft, or the failure. */
export interface ImportRowResult {
  row: number;
  clientNumber: string;
  orderId: number | null;
  providerNumber: string | null;
  statusKey: string | null;
  draftId: string | null;
  createdAt: number | null;
  /** The recorded failure (JSON of import-failures' StoredFailure); null when the order was made. */
  failure: unknown;
}

export interface FailedImportRow {
  seq: number;
  row: number;
  lastRow: number;
  clientNumber: string;
  failure: unknown;
}

/** An import whose file is kept: its path and size, for the company's quota. */
export interface KeptImportFile {
  id: number;
  status: ImportStatus;
  fileSize: number;
  sourcePath: string;
}

export interface ImportsStore {
  createImport(fields: NewImportRecord): Promise<number>;
  /** Forgets an import whose file could not be kept. */
  deleteImport(importId: number): Promise<void>;
  import(companyId: number, importId: number): Promise<ImportRecord | undefined>;
  /** Any company's import (a run's own bookkeeping). */
  importById(importId: number): Promise<ImportRecord | undefined>;
  /** Imports a crash left under way, oldest first. */
  unfinishedImports(): Promise<ImportRecord[]>;
  updateImport(importId: number, progress: ImportProgress, at: number): Promise<void>;
  /** Queues a staged import with these settings, only if it is still staged (of two runs asked at once, one takes it). */
  takeStaged(importId: number, run: { settings: UploadSettings; errorsToFile: boolean; asDrafts: boolean; language?: ImportRecord['language'] }, at: number): Promise<boolean>;

  /** The company's imports whose files are kept, oldest first. */
  keptFiles(companyId: number): Promise<KeptImportFile[]>;
  setSourcePath(importId: number, sourcePath: string): Promise<void>;
  /** The imports no longer keep their files (the rows stay). */
  forgetFiles(importIds: number[]): Promise<void>;
  /** Imports not updated since `before` that still keep a file (in the folder or, before 0014, in the database). */
  importsWithFilesBefore(before: number): Promise<{ id: number; sourcePath: string | null }[]>;
  /** Removes imports not updated since `before`, with their rows; answers the paths of the files they kept. */
  deleteImportsBefore(before: number): Promise<string[]>;
  /** One import whose file a version before 0014 kept in the database, or undefined when none is left. */
  nextStoredSource(): Promise<{ id: number; companyId: number; source: Buffer } | undefined>;

  /** A page of the import's results in file order. */
  resultRows(importId: number, offset: number, limit: number): Promise<ImportRowResult[]>;
  /** The failures recorded for an import, in file order. */
  failedRows(importId: number): Promise<FailedImportRow[]>;
  /** How many orders of an import are recorded, how many were created (as orders or drafts), and the orders' id range. */
  counts(importId: number): Promise<{ recorded: number; created: number; firstOrderId: number | null; lastOrderId: number | null }>;
}
