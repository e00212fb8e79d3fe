import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ErrorCode } from '../../../shared/errors';
import type { UploadResultItem, UploadSettings, UploadState } from '../../../shared/schemas/upload';
import { formatTimestamp } from '../../../shared/time';
import type { Clock } from '../clock';
import type { CallContext } from '../companies/company-service';
import { AppError, notFound } from '../errors';
import type { Db } from '../store/database';
import type { ImportsTable } from '../store/schema';
import { toResultFailure, type Entry, type StoredFailure } from './import-failures';
import type { ImportOptions } from './import-options';

/**
 * The imports table and its rows: one import per file, its progress, and what became of each order. The
 * file itself is kept in the data folder (`imports/<company>/<import>.xlsx`, never in the database), within
 * a quota per company, and removed with its import or when its retention ends.
 */

const day = 86_400_000;
export const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** What a run changes of its import's row. */
export type ImportProgress = Partial<Pick<ImportsTable, 'status' | 'total' | 'done' | 'created' | 'failed' | 'error' | 'finished_at' | 'settings'>>;

export interface NewImport {
  origin: 'api' | 'desktop';
  mode: 'sync' | 'async';
  status: ImportsTable['status'];
  fileName?: string;
  bytes: Buffer;
  settings?: UploadSettings;
  errorsToFile?: boolean;
  asDrafts?: boolean;
}

const finished = ['done', 'failed', 'canceled'] as const;

/** The errors file of an import is kept beside its source (`imports/<company>/<import>.errors.xlsx`) and goes with it. */
const errorsPathOf = (sourcePath: string) => sourcePath.replace(/\.xlsx$/i, '') + '.errors.xlsx';

export function createImportStore(deps: { db: Db; clock: Clock; options: ImportOptions; dataDir: string }) {
  const { db, clock, options, dataDir } = deps;
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
  const errorsFile = (row: { source_path: string | null; errors_file: Buffer | null }): Buffer | null => {
    if (row.errors_file) return row.errors_file; // made by a former version, in the database
    return row.source_path ? readKept(errorsPathOf(row.source_path)) : null;
  };

  /** Writes a file in the data folder atomically (a crash leaves no half file under its name, only a .tmp). */
  function writeAtomically(relative: string, bytes: Buffer) {
    const file = absolute(relative);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(`${file}.tmp`, bytes);
    renameSync(`${file}.tmp`, file);
  }

  /** Writes an import's file; returns its path. */
  function writeSource(companyId: number, importId: number, bytes: Buffer): string {
    const relative = path.join('imports', String(companyId), `${importId}.xlsx`);
    writeAtomically(relative, bytes);
    return relative;
  }

  /** Forgets the files of the given imports (their rows stay). */
  async function dropSources(rows: { id: number; source_path: string | null }[]) {
    for (const r of rows) removeFile(r.source_path);
    if (rows.length) await db.updateTable('imports').set({ source_path: null, source: null, errors_file: null }).where('id', 'in', rows.map((r) => r.id)).execute();
  }

  /**
   * Room for a new file of `bytes` within the company's quota: its oldest finished imports' files are
   * forgotten first; a file that still does not fit (staged and running imports hold the rest) is refused.
   */
  async function makeRoom(companyId: number, bytes: number, keep?: number) {
    const rows = await db.selectFrom('imports').select(['id', 'status', 'file_size', 'source_path']).where('company_id', '=', companyId).where('source_path', 'is not', null).orderBy('id').execute();
    // an import's errors file counts with its source
    const kept = rows.map((r) => ({ ...r, bytes: r.file_size + sizeOf(errorsPathOf(r.source_path!)) }));
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
    const row = await db.selectFrom('imports').selectAll().where('id', '=', importId).where('company_id', '=', ctx.companyId).executeTakeFirst();
    if (!row) throw notFound(`Upload ${importId} was not found`);
    return row;
  }

  /** The result items of an import, in file order; read in pages, a turn of the event loop between them. */
  async function resultItems(importId: number, offset = 0, limit = Number.MAX_SAFE_INTEGER): Promise<UploadResultItem[]> {
    const items: UploadResultItem[] = [];
    const page = 2000;
    for (let at = offset; items.length < limit; at += page) {
      const rows = await db
        .selectFrom('import_rows as r')
        .leftJoin('orders as o', 'o.id', 'r.order_id')
        .select(['r.row', 'r.client_number', 'r.order_id', 'r.created_at', 'r.error', 'r.draft_id', 'o.provider_number', 'o.status_key'])
        .where('r.import_id', '=', importId)
        .orderBy('r.seq')
        .limit(Math.min(page, limit - items.length))
        .offset(at)
        .execute();
      for (const r of rows) {
        if (r.order_id !== null) {
          items.push({
            clientNumber: r.client_number,
            row: r.row,
            orderId: r.order_id,
            providerNumber: r.provider_number ?? null,
            created: formatTimestamp(r.created_at ?? 0),
            status: r.status_key ?? undefined,
          });
        } else if (r.draft_id !== null) items.push({ clientNumber: r.client_number, row: r.row, draftId: r.draft_id, created: formatTimestamp(r.created_at ?? 0) });
        else items.push(toResultFailure(r.client_number, r.row, JSON.parse(r.error ?? '{}') as StoredFailure));
      }
      if (rows.length < page) break;
      await yieldToEventLoop();
    }
    return items;
  }

  return {
    load,
    resultItems,

    /** Where a run keeps its checked orders until it writes them (order-spool.ts); removed with the run. */
    spoolFile: (companyId: number, importId: number) => absolute(path.join('imports', String(companyId), `${importId}.orders.tmp`)),

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
      const old = db.selectFrom('imports').select('id').where('updated_at', '<', now - options.retentionDays * day);
      for (const r of await old.select('source_path').where('source_path', 'is not', null).execute()) removeFile(r.source_path);
      await db.deleteFrom('import_rows').where('import_id', 'in', old).execute();
      await db.deleteFrom('imports').where('updated_at', '<', now - options.retentionDays * day).execute();
      await dropSources(
        await db
          .selectFrom('imports')
          .select(['id', 'source_path'])
          .where('updated_at', '<', now - options.sourceRetentionDays * day)
          .where((eb) => eb.or([eb('source_path', 'is not', null), eb('source', 'is not', null), eb('errors_file', 'is not', null)]))
          .execute(),
      );
    },

    /**
     * Moves files still stored in the database (before 0014) to the data folder, one at a time (a turn
     * of the event loop between them), so the database gives their room back.
     */
    async moveStoredSources() {
      for (;;) {
        const row = await db.selectFrom('imports').select(['id', 'company_id', 'source']).where('source', 'is not', null).limit(1).executeTakeFirst();
        if (!row) return;
        const relative = writeSource(row.company_id, row.id, row.source!);
        await db.updateTable('imports').set({ source: null, source_path: relative }).where('id', '=', row.id).execute();
        await yieldToEventLoop();
      }
    },

    /** The import's file, or null when it is no longer kept. */
    source: (row: { source_path: string | null }): Buffer | null => (row.source_path ? readKept(row.source_path) : null),

    /**
     * Keeps the errors file of an import beside its source, counted in the company's quota (older finished
     * imports' files make room for it). Not kept when the source is no longer kept.
     */
    async keepErrorsFile(importId: number, bytes: Buffer) {
      const row = await db.selectFrom('imports').select(['id', 'company_id', 'source_path']).where('id', '=', importId).executeTakeFirst();
      if (!row?.source_path) return;
      await makeRoom(row.company_id, bytes.length, row.id);
      writeAtomically(errorsPathOf(row.source_path), bytes);
    },

    errorsFile,

    /** A new import, its file kept in the data folder within the company's quota (413 past it). */
    async create(ctx: CallContext, fields: NewImport): Promise<number> {
      await makeRoom(ctx.companyId, fields.bytes.length);
      const now = clock.now();
      const row = await db
        .insertInto('imports')
        .values({
          company_id: ctx.companyId,
          origin: fields.origin,
          mode: fields.mode,
          status: fields.status,
          file_name: fields.fileName ?? null,
          file_size: fields.bytes.length,
          source: null,
          settings: fields.settings ? JSON.stringify(fields.settings) : null,
          errors_to_file: fields.errorsToFile ? 1 : 0,
          as_drafts: fields.asDrafts ? 1 : 0,
          total: 0,
          done: 0,
          created: 0,
          failed: 0,
          error: null,
          errors_file: null,
          created_at: now,
          updated_at: now,
          finished_at: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      try {
        const relative = writeSource(ctx.companyId, row.id, fields.bytes);
        await db.updateTable('imports').set({ source_path: relative }).where('id', '=', row.id).execute();
      } catch (error) {
        await db.deleteFrom('imports').where('id', '=', row.id).execute();
        throw error;
      }
      return row.id;
    },

    async update(importId: number, set: ImportProgress) {
      await db.updateTable('imports').set({ ...set, updated_at: clock.now() }).where('id', '=', importId).execute();
    },

    /**
     * Takes a staged file for a run, only if it is still staged: of two runs asked at once (a double
     * click), one takes it and the other runs as a new import, never the same import twice.
     */
    async takeStaged(importId: number, settings: UploadSettings, errorsToFile: boolean, asDrafts: boolean): Promise<boolean> {
      const result = await db
        .updateTable('imports')
        .set({ status: 'queued', settings: JSON.stringify(settings), errors_to_file: errorsToFile ? 1 : 0, as_drafts: asDrafts ? 1 : 0, updated_at: clock.now() })
        .where('id', '=', importId)
        .where('status', '=', 'staged')
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /** The failed orders of an import as recorded, in file order (for an errors file made later). */
    async failedEntries(importId: number): Promise<Entry[]> {
      const rows = await db.selectFrom('import_rows').select(['seq', 'row', 'last_row', 'client_number', 'error']).where('import_id', '=', importId).where('error', 'is not', null).orderBy('seq').execute();
      return rows.map((f) => ({ seq: f.seq, row: f.row, lastRow: f.last_row, clientNumber: f.client_number, failure: JSON.parse(f.error!) as StoredFailure }));
    },

    /** How many orders of an import are recorded, and how many of them were created (as orders or drafts). */
    async counts(importId: number): Promise<{ recorded: number; created: number; firstOrderId: number | null; lastOrderId: number | null }> {
      const r = await db
        .selectFrom('import_rows')
        .select((eb) => [
          eb.fn.countAll<number>().as('recorded'),
          eb.fn.count<number>('order_id').as('orders'),
          eb.fn.count<number>('draft_id').as('drafts'),
          eb.fn.min('order_id').as('first'),
          eb.fn.max('order_id').as('last'),
        ])
        .where('import_id', '=', importId)
        .executeTakeFirstOrThrow();
      return { recorded: Number(r.recorded), created: Number(r.orders) + Number(r.drafts), firstOrderId: r.first, lastOrderId: r.last };
    },

    /** Imports a crash left under way. */
    unfinished: () => db.selectFrom('imports').selectAll().where('status', 'in', ['queued', 'reading', 'creating', 'registering']).orderBy('id').execute(),

    /** GET /orders/upload/{id}: the upload's state and its results (a page of them). */
    async state(ctx: CallContext, importId: number, offset?: number, limit?: number): Promise<UploadState> {
      const row = await load(ctx, importId);
      return {
        uploadId: row.id,
        status: row.status,
        done: row.done,
        total: row.total,
        created: row.created,
        failed: row.failed,
        resultItems: await resultItems(importId, offset, limit),
        base64: errorsFile(row)?.toString('base64') ?? null,
        error: row.error ? (JSON.parse(row.error) as UploadState['error']) : null,
      };
    },
  };
}

export type ImportStore = ReturnType<typeof createImportStore>;
