import type { UploadResultItem, UploadSettings, UploadState } from '../../../shared/schemas/upload';
import { formatTimestamp } from '../../../shared/time';
import type { Clock } from '../clock';
import type { CallContext } from '../companies/company-service';
import { notFound } from '../errors';
import type { Db } from '../store/database';
import type { ImportsTable } from '../store/schema';
import { toResultFailure, type StoredFailure } from './import-failures';
import type { ImportOptions } from './import-options';

/** The imports table and its rows: one import per file, its progress, and what became of each order. */

const day = 86_400_000;
export const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** What a run changes of its import's row. */
export type ImportProgress = Partial<Pick<ImportsTable, 'status' | 'total' | 'done' | 'created' | 'failed' | 'error' | 'errors_file' | 'finished_at' | 'settings'>>;

export interface NewImport {
  origin: 'api' | 'desktop';
  mode: 'sync' | 'async';
  status: ImportsTable['status'];
  fileName?: string;
  bytes: Buffer;
  settings?: UploadSettings;
  errorsToFile?: boolean;
}

export function createImportStore(deps: { db: Db; clock: Clock; options: ImportOptions }) {
  const { db, clock, options } = deps;

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

    /** Forgets old imports, and the files of imports past their files' retention. */
    async prune() {
      const now = clock.now();
      await db.deleteFrom('import_rows').where('import_id', 'in', (eb) => eb.selectFrom('imports').select('id').where('updated_at', '<', now - options.retentionDays * day)).execute();
      await db.deleteFrom('imports').where('updated_at', '<', now - options.retentionDays * day).execute();
      await db
        .updateTable('imports')
        .set({ source: null, errors_file: null })
        .where('updated_at', '<', now - options.sourceRetentionDays * day)
        .where((eb) => eb.or([eb('source', 'is not', null), eb('errors_file', 'is not', null)]))
        .execute();
    },

    async create(ctx: CallContext, fields: NewImport): Promise<number> {
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
          source: fields.bytes,
          settings: fields.settings ? JSON.stringify(fields.settings) : null,
          errors_to_file: fields.errorsToFile ? 1 : 0,
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
      return row.id;
    },

    async update(importId: number, set: ImportProgress) {
      await db.updateTable('imports').set({ ...set, updated_at: clock.now() }).where('id', '=', importId).execute();
    },

    /**
     * Takes a staged file for a run, only if it is still staged: of two runs asked at once (a double
     * click), one takes it and the other runs as a new import, never the same import twice.
     */
    async takeStaged(importId: number, settings: UploadSettings, errorsToFile: boolean): Promise<boolean> {
      const result = await db
        .updateTable('imports')
        .set({ status: 'queued', settings: JSON.stringify(settings), errors_to_file: errorsToFile ? 1 : 0, updated_at: clock.now() })
        .where('id', '=', importId)
        .where('status', '=', 'staged')
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /** The failed orders of an import, in file order (for an errors file made later). */
    failures: (importId: number) =>
      db.selectFrom('import_rows').select(['seq', 'row', 'last_row', 'client_number', 'error']).where('import_id', '=', importId).where('error', 'is not', null).orderBy('seq').execute(),

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
        base64: row.errors_file ? row.errors_file.toString('base64') : null,
        error: row.error ? (JSON.parse(row.error) as UploadState['error']) : null,
      };
    },
  };
}

export type ImportStore = ReturnType<typeof createImportStore>;
