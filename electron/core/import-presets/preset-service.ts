import type { ImportPreset } from '../../../shared/contract/import';
import { said } from '../../../shared/messages';
import type { UploadSettings } from '../../../shared/schemas/upload';
import { formatTimestamp } from '../../../shared/time';
import type { Clock } from '../clock';
import type { CallContext } from '../companies/company-service';
import { notFound } from '../errors';
import type { DraftsStore, StoredPreset } from '../store/drafts/drafts-store';

/**
 * The import wizard's saved column mappings, per company. A preset keeps the upload settings and the header
 * row they were made for; the wizard offers the one whose columns match a new file's headers.
 */
export function createImportPresetService({ drafts, clock }: { drafts: DraftsStore; clock: Clock }) {
  const view = (p: StoredPreset): ImportPreset => ({
    id: p.id,
    name: p.name,
    settings: p.settings,
    headers: p.headers,
    created: formatTimestamp(p.createdAt),
    updated: formatTimestamp(p.updatedAt),
  });

  return {
    /** The company's presets, last saved first. */
    async list(ctx: CallContext): Promise<ImportPreset[]> {
      return (await drafts.presets(ctx.companyId)).map(view);
    },

    /** Saves under the name; a preset of the same name is replaced (keeping its id). */
    async save(ctx: CallContext, input: { name: string; settings: UploadSettings; headers: ImportPreset['headers'] }): Promise<ImportPreset> {
      return view(await drafts.savePreset(ctx.companyId, { ...input, at: clock.now() }));
    },

    async delete(ctx: CallContext, id: number): Promise<{ id: number; deleted: string }> {
      if (!(await drafts.deletePreset(ctx.companyId, id))) throw notFound(said('notFound.preset', { id }));
      return { id, deleted: formatTimestamp(clock.now()) };
    },
  };
}

export type ImportPresetService = ReturnType<typeof createImportPresetService>;
