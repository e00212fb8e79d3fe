import type { Selectable } from 'kysely';
import type { OpenedDatabase } from '../database';
import type { ImportPresetsTable } from '../schema';
import type { DraftsStore, StoredPreset } from './drafts-store';

/** Most client numbers looked up in one statement (SQLite's bound-parameter limit is far above). */
const lookupChunk = 500;

/** A string at `path` of the form, trimmed and cut to fit a list cell; null when absent or not text. */
function textAt(data: Record<string, unknown>, path: string[]): string | null {
  let node: unknown = data;
  for (const key of path) node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined;
  if (typeof node === 'number') node = String(node);
  if (typeof node !== 'string' || !node.trim()) return null;
  return node.trim().slice(0, 255);
}

/** The columns the drafts list reads, taken from a draft's data. */
const listingColumns = (data: Record<string, unknown>) => ({
  client_number: textAt(data, ['order', 'clientNumber']),
  recipient: textAt(data, ['recipient', 'contactName']),
  provider_key: textAt(data, ['order', 'providerKey']),
});

const toPreset = (r: Selectable<ImportPresetsTable>): StoredPreset => ({
  id: r.id,
  name: r.name,
  settings: JSON.parse(r.settings),
  headers: JSON.parse(r.headers),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export function createSqliteDraftsStore({ db }: Pick<OpenedDatabase, 'db'>): DraftsStore {
  return {
    async saveDraft(companyId, { id, data, at }) {
      const text = JSON.stringify(data);
      const columns = listingColumns(data);
      await db
        .insertInto('drafts')
        .values({ company_id: companyId, id, data: text, ...columns, created_at: at, updated_at: at })
        .onConflict((oc) => oc.columns(['company_id', 'id']).doUpdateSet({ data: text, ...columns, updated_at: at }))
        .execute();
    },

    async draft(companyId, id) {
      const row = await db.selectFrom('drafts').selectAll().where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst();
      return row && { id: row.id, data: JSON.parse(row.data), createdAt: row.created_at, updatedAt: row.updated_at };
    },

    async drafts(companyId, page) {
      const base = db.selectFrom('drafts').where('company_id', '=', companyId);
      const [rows, total] = await Promise.all([
        base
          .select(['id', 'client_number', 'recipient', 'provider_key', 'created_at', 'updated_at'])
          .orderBy('updated_at', 'desc')
          .orderBy('id')
          .limit(page.limit)
          .offset(page.offset)
          .execute(),
        base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ]);
      return {
        total: Number(total.n),
        rows: rows.map((r) => ({ id: r.id, clientNumber: r.client_number, recipient: r.recipient, providerKey: r.provider_key, createdAt: r.created_at, updatedAt: r.updated_at })),
      };
    },

    async deleteDraft(companyId, id) {
      const result = await db.deleteFrom('drafts').where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    async draftsByClientNumber(companyId, clientNumbers) {
      const found = new Map<string, string>();
      for (let at = 0; at < clientNumbers.length; at += lookupChunk) {
        const rows = await db
          .selectFrom('drafts')
          .select(['id', 'client_number'])
          .where('company_id', '=', companyId)
          .where('client_number', 'in', clientNumbers.slice(at, at + lookupChunk))
          .execute();
        for (const r of rows) if (r.client_number !== null) found.set(r.client_number, r.id);
      }
      return found;
    },

    async writeImportedDrafts(companyId, importId, items, at, newId) {
      const made = new Map<number, string>();
      if (!items.length) return made;
      await db.transaction().execute(async (trx) => {
        for (const item of items) {
          let draftId: string | null = null;
          if ('json' in item) {
            draftId = newId();
            const columns = listingColumns(JSON.parse(item.json) as Record<string, unknown>);
            await trx.insertInto('drafts').values({ company_id: companyId, id: draftId, data: item.json, ...columns, created_at: at, updated_at: at }).execute();
            made.set(item.seq, draftId);
          }
          await trx
            .insertInto('import_rows')
            .values({
              import_id: importId,
              seq: item.seq,
              row: item.row,
              last_row: item.lastRow,
              client_number: item.clientNumber,
              order_id: null,
              created_at: draftId ? at : null,
              error: 'error' in item ? item.error : null,
              draft_id: draftId,
            })
            .execute();
        }
      });
      return made;
    },

    async presets(companyId) {
      const rows = await db.selectFrom('import_presets').selectAll().where('company_id', '=', companyId).orderBy('updated_at', 'desc').orderBy('id', 'desc').execute();
      return rows.map(toPreset);
    },

    async savePreset(companyId, { name, settings, headers, at }) {
      const values = { settings: JSON.stringify(settings), headers: JSON.stringify(headers), updated_at: at };
      const row = await db
        .insertInto('import_presets')
        .values({ company_id: companyId, name, ...values, created_at: at })
        .onConflict((oc) => oc.columns(['company_id', 'name']).doUpdateSet(values))
        .returningAll()
        .executeTakeFirstOrThrow();
      return toPreset(row);
    },

    async deletePreset(companyId, id) {
      const result = await db.deleteFrom('import_presets').where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}
