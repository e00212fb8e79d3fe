import type { CallContext } from '../companies/company-service';
import type { EventBus } from '../events';
import type { DraftsStore, ImportedDraft } from '../store/drafts/drafts-store';
import { newDraftId } from './draft-service';

/** One order of an import: its checked payload (JSON) to keep as a draft, or the failure to record. */
export type DraftImportItem = ImportedDraft;

/**
 * The import wizard's "as drafts" target: checked orders of a spreadsheet are kept as drafts (the same
 * drafts drafts.save keeps, so the drafts page lists them and drafts.submit sends them), each batch recorded
 * with the import's rows in one write.
 */
export function createDraftImportWriter({ drafts, events }: { drafts: DraftsStore; events: EventBus }) {
  return {
    /** Drafts of the company that already carry one of these client numbers: clientNumber → draft id. */
    existing: (ctx: CallContext, clientNumbers: string[]): Promise<Map<string, string>> => drafts.draftsByClientNumber(ctx.companyId, clientNumbers),

    /** Writes one batch: a draft per valid item, the import's record of every item. Returns the drafts made by seq. */
    async write(ctx: CallContext, importId: number, items: DraftImportItem[], now: number): Promise<Map<number, string>> {
      const made = await drafts.writeImportedDrafts(ctx.companyId, importId, items, now, newDraftId);
      if (made.size) events.publish({ type: 'drafts.changed', companyId: ctx.companyId });
      return made;
    },
  };
}

export type DraftImportWriter = ReturnType<typeof createDraftImportWriter>;
