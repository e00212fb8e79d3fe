import type { CallContext } from '../companies/company-service';
import type { EventBus } from '../events';
import type { Db } from '../store/database';
import { draftSummaryColumns, newDraftId } from './draft-service';

/** One order of an import: its checked payload (JSON) to keep as a draft, or the failure to record. */
export type DraftImportItem =
  | { seq: number; row: number; lastRow: number; clientNumber: string; json: string }
  | { seq: number; row: number; lastRow: number; clientNumber: string; error: string };

/** Most client numbers looked up in one statement (SQLite's bound-parameter limit is far above). */
const lookupChunk = 500;

/**
 * The import wizard's "as drafts" target: checked orders of a spreadsheet are kept as drafts (the same rows
 * drafts.save writes, so the drafts page lists them and drafts.submit sends them), each batch recorded in
 * import_rows in the same transaction as its drafts.
 */
export function createDraftImportWriter({ db, events }: { db: Db; events: EventBus }) {
  return {
    /** Drafts of the company that already carry one of these client numbers: clientNumber → draft id. */
    async existing(ctx: CallContext, clientNumbers: string[]): Promise<Map<string, string>> {
      const found = new Map<string, string>();
      for (let at = 0; at < clientNumbers.length; at += lookupChunk) {
        const rows = await db
          .selectFrom('drafts')
          .select(['id', 'client_number'])
          .where('company_id', '=', ctx.companyId)
          .where('client_number', 'in', clientNumbers.slice(at, at + lookupChunk))
          .execute();
        for (const r of rows) if (r.client_number !== null) found.set(r.client_number, r.id);
      }
      return found;
    },

    /** Writes one batch: a draft per valid item, an import_rows row per item. Returns the drafts made by seq. */
    async write(ctx: CallContext, importId: number, items: DraftImportItem[], now: number): Promise<Map<number, string>> {
      const made = new Map<number, string>();
      if (!items.length) return made;
      await db.transaction().execute(async (trx) => {
        for (const item of items) {
          let draftId: string | null = null;
          if ('json' in item) {
            const data = JSON.parse(item.json) as Record<string, unknown>;
            draftId = newDraftId();
            await trx
              .insertInto('drafts')
              .values({ company_id: ctx.companyId, id: draftId, data: item.json, ...draftSummaryColumns(data), created_at: now, updated_at: now })
              .execute();
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
              created_at: draftId ? now : null,
              error: 'error' in item ? item.error : null,
              draft_id: draftId,
            })
            .execute();
        }
      });
      if (made.size) events.publish({ type: 'drafts.changed', companyId: ctx.companyId });
      return made;
    },
  };
}

export type DraftImportWriter = ReturnType<typeof createDraftImportWriter>;
