import type { Selectable } from 'kysely';
import type { OpenedDatabase } from '../database';
import { readJsonColumn } from '../json-column';
import type { ImportsTable } from '../schema';
import type { ImportProgress, ImportRecord, ImportsStore } from './imports-store';

const unfinishedStatuses = ['queued', 'reading', 'creating', 'registering'] as const;

const toImport = (r: Selectable<ImportsTable>): ImportRecord => ({
  id: r.id,
  companyId: r.company_id,
  origin: r.origin,
  mode: r.mode,
  status: r.status,
  fileName: r.file_name,
  fileSize: r.file_size,
  sourcePath: r.source_path,
  legacyErrorsFile: r.errors_file,
  settings: (readJsonColumn(r.settings) ?? null) as ImportRecord['settings'],
  errorsToFile: r.errors_to_file === 1,
  asDrafts: r.as_drafts === 1,
  language: r.language ?? null,
  total: r.total,
  done: r.done,
  created: r.created,
  failed: r.failed,
  error: readJsonColumn(r.error) ?? null,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  finishedAt: r.finished_at,
});

const progressColumns = (p: ImportProgress) => ({
  ...(p.status !== undefined && { status: p.status }),
  ...(p.total !== undefined && { total: p.total }),
  ...(p.done !== undefined && { done: p.done }),
  ...(p.created !== undefined && { created: p.created }),
  ...(p.failed !== undefined && { failed: p.failed }),
  ...(p.error !== undefined && { error: p.error === null ? null : JSON.stringify(p.error) }),
  ...(p.finishedAt !== undefined && { finished_at: p.finishedAt }),
  ...(p.settings !== undefined && { settings: p.settings === null ? null : JSON.stringify(p.settings) }),
});

export function createSqliteImportsStore({ db }: Pick<OpenedDatabase, 'db'>): ImportsStore {
  return {
    async createImport(f) {
      const row = await db
        .insertInto('imports')
        .values({
          company_id: f.companyId, origin: f.origin, mode: f.mode, status: f.status, file_name: f.fileName, file_size: f.fileSize, source: null,
          settings: f.settings ? JSON.stringify(f.settings) : null, errors_to_file: f.errorsToFile ? 1 : 0, as_drafts: f.asDrafts ? 1 : 0, language: f.language ?? null,
          total: 0, done: 0, created: 0, failed: 0, error: null, errors_file: null, created_at: f.at, updated_at: f.at, finished_at: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },

    async deleteImport(importId) {
      await db.deleteFrom('imports').where('id', '=', importId).execute();
    },

    async import(companyId, importId) {
      const row = await db.selectFrom('imports').selectAll().where('id', '=', importId).where('company_id', '=', companyId).executeTakeFirst();
      return row && toImport(row);
    },

    async importById(importId) {
      const row = await db.selectFrom('imports').selectAll().where('id', '=', importId).executeTakeFirst();
      return row && toImport(row);
    },

    async unfinishedImports() {
      return (await db.selectFrom('imports').selectAll().where('status', 'in', unfinishedStatuses).orderBy('id').execute()).map(toImport);
    },

    async updateImport(importId, progress, at) {
      await db.updateTable('imports').set({ ...progressColumns(progress), updated_at: at }).where('id', '=', importId).execute();
    },

    async takeStaged(importId, run, at) {
      const result = await db
        .updateTable('imports')
        .set({ status: 'queued', settings: JSON.stringify(run.settings), errors_to_file: run.errorsToFile ? 1 : 0, as_drafts: run.asDrafts ? 1 : 0, language: run.language ?? null, updated_at: at })
        .where('id', '=', importId)
        .where('status', '=', 'staged')
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    async keptFiles(companyId) {
      const rows = await db
        .selectFrom('imports')
        .select(['id', 'status', 'file_size', 'source_path'])
        .where('company_id', '=', companyId)
        .where('source_path', 'is not', null)
        .orderBy('id')
        .execute();
      return rows.map((r) => ({ id: r.id, status: r.status, fileSize: r.file_size, sourcePath: r.source_path! }));
    },

    async setSourcePath(importId, sourcePath) {
      await db.updateTable('imports').set({ source: null, source_path: sourcePath }).where('id', '=', importId).execute();
    },

    async forgetFiles(importIds) {
      if (importIds.length) await db.updateTable('imports').set({ source_path: null, source: null, errors_file: null }).where('id', 'in', importIds).execute();
    },

    async importsWithFilesBefore(before) {
      const rows = await db
        .selectFrom('imports')
        .select(['id', 'source_path'])
        .where('updated_at', '<', before)
        .where((eb) => eb.or([eb('source_path', 'is not', null), eb('source', 'is not', null), eb('errors_file', 'is not', null)]))
        .execute();
      return rows.map((r) => ({ id: r.id, sourcePath: r.source_path }));
    },

    deleteImportsBefore: (before) =>
      db.transaction().execute(async (trx) => {
        const old = trx.selectFrom('imports').select('id').where('updated_at', '<', before);
        const kept = await old.select('source_path').where('source_path', 'is not', null).execute();
        await trx.deleteFrom('import_rows').where('import_id', 'in', old).execute();
        await trx.deleteFrom('imports').where('updated_at', '<', before).execute();
        return kept.map((r) => r.source_path!);
      }),

    async nextStoredSource() {
      const row = await db.selectFrom('imports').select(['id', 'company_id', 'source']).where('source', 'is not', null).limit(1).executeTakeFirst();
      return row && { id: row.id, companyId: row.company_id, source: row.source! };
    },

    async resultRows(importId, offset, limit) {
      const rows = await db
        .selectFrom('import_rows as r')
        .leftJoin('orders as o', 'o.id', 'r.order_id')
        .select(['r.row', 'r.client_number', 'r.order_id', 'r.created_at', 'r.error', 'r.draft_id', 'o.provider_number', 'o.status_key'])
        .where('r.import_id', '=', importId)
        .orderBy('r.seq')
        .limit(limit)
        .offset(offset)
        .execute();
      return rows.map((r) => ({
        row: r.row,
        clientNumber: r.client_number,
        orderId: r.order_id,
        providerNumber: r.provider_number ?? null,
        statusKey: r.status_key ?? null,
        draftId: r.draft_id,
        createdAt: r.created_at,
        failure: r.order_id === null && r.draft_id === null ? JSON.parse(r.error ?? '{}') : null,
      }));
    },

    async failedRows(importId) {
      const rows = await db
        .selectFrom('import_rows')
        .select(['seq', 'row', 'last_row', 'client_number', 'error'])
        .where('import_id', '=', importId)
        .where('error', 'is not', null)
        .orderBy('seq')
        .execute();
      return rows.map((f) => ({ seq: f.seq, row: f.row, lastRow: f.last_row, clientNumber: f.client_number, failure: JSON.parse(f.error!) }));
    },

    async counts(importId) {
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
  };
}
