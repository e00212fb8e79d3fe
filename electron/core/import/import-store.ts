import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { said } from '../../../shared/messages';
import path from 'node:path';
import { ErrorCode } from '../../../shared/errors';
import type { UploadResultItem, UploadSettings, UploadState } from '../../../shared/schemas/upload';
import { formatTimestamp } from '../../../shared/time';
import type { Clock } from '../clock';
import type { CallContext } from '../companies/company-service';
import { AppError, notFound } from '../errors';
import type { ImportProgress, ImportRecord, ImportsStore, ImportStatus, KeptImportFile } from '../store/imports/imports-store';
import { toResultFailure, type Entry, type StoredFailure } from './import-failures';
import type { ImportOptions } from './import-options';

/**
 * Imports with their files: the imports store keeps each import, its progress and what became of each order;
 * the file itself is kept here, in the data folder (`imports/<company>/<import>.xlsx`, never in the
 * database), within a quota per company, and removed with its import or when its retention ends.
 */

const day = 86_400_000;
export const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

export type { ImportProgress } from '../store/imports/imports-store';

export interface NewImport {
  origin: 'api' | 'desktop';
  mode: 'sync' | 'async';
  status: ImportStatus;
  fileName?: string;
  bytes: Buffer;
  settings?: UploadSettings;
  errorsToFile?: boolean;
  asDrafts?: boolean;
  language?: 'ru' | 'en';
}

const finished = ['done', 'failed', 'canceled'] as const;

/** The errors file of an import is kept beside its source (`imports/<company>/<import>.errors.xlsx`) and goes with it. */
const errorsPathOf = (sourcePath: string) => sourcePath.replace(/\.xlsx$/i, '') + '.errors.xlsx';

export function createImportStore(deps: { imports: ImportsStore; clock: Clock; options: ImportOptions; dataDir: string }) {
  const { imports, clock, options, dataDir } = deps;
  const absolute = (relative: string) => path.join(dataDir, relative);
  /** Removes an import's source and the errors file made from it. */
  const removeFile = (relative: string | null) => {
    if (!relative) return;
    rmSync(absolute(relative), { force: true });
    rmSync(absolute(errorsPathOf(relative)), { force: true });
  };
  const sizeOf = (relative: string) => {
    try {
      return statSync(absolute(relative)).size;
    } catch {
      return 0;
    }
  };

  /** A file kept in the data folder, or null when it is gone. */
  const readKept = (relative: string): Buffer | null => {
    try {
      return readFileSync(absolute(relative));
    } catch {
      return null;
    }
  };

  /** The errors file of an import, or null when none was made (or it is no longer kept). */
  const errorsFile = (record: Pick<ImportRecord, 'sourcePath' | 'legacyErrorsFile'>): Buffer | null => {
    if (record.legacyErrorsFile) return record.legacyErrorsFile; // made by a former version, in the database
    return record.sourcePath ? readKept(errorsPathOf(record.sourcePath)) : null;
  };

  /**
   * Writes a file in the data folder atomically (a crash leaves no half file under its name, only a .tmp, and a failed
   * write not even that), off the main thread: a 30 MB workbook written at once held every other caller meanwhile.
   */
  async function writeAtomically(relative: string, bytes: Buffer) {
    const file = absolute(relative);
    await mkdir(path.dirname(file), { recursive: true });
    try {
      await writeFile(`${file}.tmp`, bytes);
      await rename(`${file}.tmp`, file);
    } catch (error) {
      await rm(`${file}.tmp`, { force: true });
      throw error;
    }
  }

  /** Where an import's file is kept, from the data folder. */
  const sourcePathOf = (companyId: number, importId: number) => path.join('imports', String(companyId), `${importId}.xlsx`);

  /** Writes an import's file; returns its path. */
  async function writeSource(companyId: number, importId: number, bytes: Buffer): Promise<string> {
    const relative = sourcePathOf(companyId, importId);
    await writeAtomically(relative, bytes);
    return relative;
  }

  /** Forgets the files of the given imports (their rows stay). */
  async function dropSources(kept: { id: number; sourcePath: string | null }[]) {
    for (const k of kept) removeFile(k.sourcePath);
    await imports.forgetFiles(kept.map((k) => k.id));
  }

  /**
   * Room for a new file of `bytes` within the company's quota: its oldest finished imports' files are
   * forgotten first; a file that still does not fit (staged and running imports hold the rest) is refused.
   */
  async function makeRoom(companyId: number, bytes: number, keep?: number) {
    // an import's errors file counts with its source
    const kept = (await imports.keptFiles(companyId)).map((k: KeptImportFile) => ({ ...k, bytes: k.fileSize + sizeOf(errorsPathOf(k.sourcePath)) }));
    let total = kept.reduce((n, r) => n + r.bytes, 0);
    const drop: typeof kept = [];
    for (const r of kept) {
      if (total + bytes <= options.maxKeptSourceBytesPerCompany) break;
      if (r.id === keep || !(finished as readonly string[]).includes(r.status)) continue;
      drop.push(r);
      total -= r.bytes;
    }
    await dropSources(drop);
    if (keep !== undefined) return; // an errors file is made after its orders were written: it is kept even past the quota
    if (total + bytes > options.maxKeptSourceBytesPerCompany) {
      const mb = (n: number) => `${Math.round(n / 1024 / 1024)} MB`;
      throw new AppError(413, {
        code: ErrorCode.general,
        message: 'Too many files kept',
        description: `The files of this company's unfinished imports take ${mb(total)}; with this one they would pass the ${mb(options.maxKeptSourceBytesPerCompany)} kept per company. Let the running imports finish (or run or discard staged files) and upload again.`,
        errors: [{ field: 'file', message: `more than ${mb(options.maxKeptSourceBytesPerCompany)} of import files kept` }],
      });
    }
  }

  async function load(ctx: CallContext, importId: number) {
    const record = await imports.import(ctx.companyId, importId);
    if (!record) throw notFound(said('notFound.upload', { id: importId }));
    return record;
  }

  /** The result items of an import, in file order; read in pages, a turn of the event loop between them. */
  async function resultItems(importId: number, offset = 0, limit = Number.MAX_SAFE_INTEGER, withKeys = false): Promise<UploadResultItem[]> {
    const items: UploadResultItem[] = [];
    const page = 2000;
    for (let at = offset; items.length < limit; at += page) {
      const rows = await imports.resultRows(importId, at, Math.min(page, limit - items.length));
      for (const r of rows) {
        if (r.orderId !== null) {
          items.push({
            clientNumber: r.clientNumber,
            row: r.row,
            orderId: r.orderId,
            providerNumber: r.providerNumber,
            created: formatTimestamp(r.createdAt ?? 0),
            status: r.statusKey ?? undefined,
          });
        } else if (r.draftId !== null) items.push({ clientNumber: r.clientNumber, row: r.row, draftId: r.draftId, created: formatTimestamp(r.createdAt ?? 0) });
        else items.push(toResultFailure(r.clientNumber, r.row, r.failure as StoredFailure, withKeys));
      }
      if (rows.length < page) break;
      await yieldToEventLoop();
    }
    return items;
  }

  return {
    load,
    resultItems,

    /** The file an import's workbook is kept in (its record's sourcePath, whole under its name), or undefined when it is no longer kept. */
    sourceFile(record: Pick<ImportRecord, 'sourcePath'>): string | undefined {
      if (!record.sourcePath) return undefined;
      const file = absolute(record.sourcePath);
      return existsSync(file) ? file : undefined;
    },

    /** Where a run keeps its checked orders until it writes them (order-spool.ts); removed with the run. */
    spoolFile: (companyId: number, importId: number) => absolute(path.join('imports', String(companyId), `${importId}.orders.tmp`)),

    /** Where a run's errors file is written before it is kept (a .tmp: one a crash left is removed at start). */
    errorsDraftFile: (companyId: number, importId: number) => absolute(path.join('imports', String(companyId), `${importId}.errors.tmp`)),

    /** Spool files and half-written files a crash left behind (a run taken up again reads its file anew). */
    removeSpools() {
      const root = absolute('imports');
      if (!existsSync(root)) return;
      for (const company of readdirSync(root)) {
        const dir = path.join(root, company);
        if (!statSync(dir).isDirectory()) continue;
        for (const name of readdirSync(dir)) if (name.endsWith('.tmp')) rmSync(path.join(dir, name), { force: true });
      }
    },

    /** Forgets old imports (their files with them), and the files of imports past their files' retention. */
    async prune() {
      const now = clock.now();
      for (const sourcePath of await imports.deleteImportsBefore(now - options.retentionDays * day)) removeFile(sourcePath);
      await dropSources(await imports.importsWithFilesBefore(now - options.sourceRetentionDays * day));
    },

    /**
     * Moves files still stored in the database (before 0014) to the data folder, one at a time (a turn
     * of the event loop between them), so the database gives their room back.
     */
    async moveStoredSources() {
      for (;;) {
        const stored = await imports.nextStoredSource();
        if (!stored) return;
        await imports.setSourcePath(stored.id, await writeSource(stored.companyId, stored.id, stored.source));
        await yieldToEventLoop();
      }
    },

    /** The import's file, or null when it is no longer kept. */
    source: (record: Pick<ImportRecord, 'sourcePath'>): Buffer | null => (record.sourcePath ? readKept(record.sourcePath) : null),

    /**
     * Keeps the errors file of an import beside its source, counted in the company's quota (older finished
     * imports' files make room for it). Not kept when the source is no longer kept. `written`: the
     * finished file (errorsDraftFile), moved into place.
     */
    async keepErrorsFile(importId: number, written: string) {
      const record = await imports.importById(importId);
      if (!record?.sourcePath) return;
      await makeRoom(record.companyId, statSync(written).size, record.id);
      renameSync(written, absolute(errorsPathOf(record.sourcePath)));
    },

    errorsFile,

    /** Forgets an import's kept file (its row stays): a file found unfit while it was read, before any order came of it. */
    async forgetFile(importId: number) {
      const record = await imports.importById(importId);
      if (record?.sourcePath) await dropSources([record]);
    },

    /** A new import, its file kept in the data folder within the company's quota (413 past it): its id and where the file is (as its record says). */
    async create(ctx: CallContext, fields: NewImport): Promise<Pick<ImportRecord, 'id' | 'sourcePath'>> {
      await makeRoom(ctx.companyId, fields.bytes.length);
      const importId = await imports.createImport({
        companyId: ctx.companyId,
        origin: fields.origin,
        mode: fields.mode,
        status: fields.status,
        fileName: fields.fileName ?? null,
        fileSize: fields.bytes.length,
        settings: fields.settings ?? null,
        errorsToFile: fields.errorsToFile ?? false,
        asDrafts: fields.asDrafts ?? false,
        language: fields.language ?? null,
        at: clock.now(),
      });
      let sourcePath: string;
      try {
        sourcePath = await writeSource(ctx.companyId, importId, fields.bytes);
        await imports.setSourcePath(importId, sourcePath);
      } catch (error) {
        await imports.deleteImport(importId);
        throw error;
      }
      return { id: importId, sourcePath };
    },

    update: (importId: number, set: ImportProgress) => imports.updateImport(importId, set, clock.now()),

    /**
     * Takes a staged file for a run, only if it is still staged: of two runs asked at once (a double
     * click), one takes it and the other runs as a new import, never the same import twice.
     */
    async takeStaged(importId: number, run: { settings: UploadSettings; errorsToFile: boolean; asDrafts: boolean; language?: 'ru' | 'en' }): Promise<boolean> {
      return imports.takeStaged(importId, run, clock.now());
    },

    /** The failed orders of an import as recorded, in file order (for an errors file made later). */
    async failedEntries(importId: number): Promise<Entry[]> {
      return (await imports.failedRows(importId)).map((f) => ({ ...f, failure: f.failure as StoredFailure }));
    },

    /** How many orders of an import are recorded, and how many of them were created (as orders or drafts). */
    counts: (importId: number) => imports.counts(importId),

    /** Imports a crash left under way. */
    unfinished: () => imports.unfinishedImports(),

    /** GET /orders/upload/{id}: the upload's state and its results (a page of them). */
    async state(ctx: CallContext, importId: number, offset?: number, limit?: number, withKeys = false): Promise<UploadState> {
      const record = await load(ctx, importId);
      return {
        uploadId: record.id,
        status: record.status,
        done: record.done,
        total: record.total,
        created: record.created,
        failed: record.failed,
        resultItems: await resultItems(importId, offset, limit, withKeys),
        base64: errorsFile(record)?.toString('base64') ?? null,
        error: (record.error ?? null) as UploadState['error'],
      };
    },
  };
}

export type ImportStore = ReturnType<typeof createImportStore>;
