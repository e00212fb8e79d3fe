import type { ImportPreset } from '../../../shared/contract/import';
import type { UploadSettings } from '../../../shared/schemas/upload';
import { formatTimestamp } from '../../../shared/time';
import type { Clock } from '../clock';
import type { CallContext } from '../companies/company-service';
import { notFound } from '../errors';
import type { Db } from '../store/database';

/**
 * The import wizard's saved column mappings, per company. A preset keeps the upload settings and the header
 * row they were made for; the wizard offers the one whose columns match a new file's headers.
 */
export function createImportPresetService({ db, clock }: { db: Db; clock: Clock }) {
  const view = (r: { id: number; name: string; settings: string; headers: string; created_at: number; updated_at: number }): ImportPreset => ({
    id: r.id,
    name: r.name,
    settings: JSON.parse(r.settings) as UploadSettings,
    headers: JSON.parse(r.headers) as ImportPreset['headers'],
    created: formatTimestamp(r.created_at),
    updated: formatTimestamp(r.updated_at),
  });

  const find = async (ctx: CallContext, where: { id: number } | { name: string }) => {
    let query = db.selectFrom('import_presets').selectAll().where('company_id', '=', ctx.companyId);
    query = 'id' in where ? query.where('id', '=', where.id) : query.where('name', '=', where.name);
    return query.executeTakeFirst();
  };

  return {
    /** The company's presets, last saved first. */
    async list(ctx: CallContext): Promise<ImportPreset[]> {
      const rows = await db.selectFrom('import_presets').selectAll().where('company_id', '=', ctx.companyId).orderBy('updated_at', 'desc').orderBy('id', 'desc').execute();
      return rows.map(view);
    },

    /** Saves under the name; a preset of the same name is replaced (keeping its id). */
    async save(ctx: CallContext, input: { name: string; settings: UploadSettings; headers: ImportPreset['headers'] }): Promise<ImportPreset> {
      const now = clock.now();
      const settings = JSON.stringify(input.settings);
      const headers = JSON.stringify(input.headers);
      await db
        .insertInto('import_presets')
        .values({ company_id: ctx.companyId, name: input.name, settings, headers, created_at: now, updated_at: now })
        .onConflict((oc) => oc.columns(['company_id', 'name']).doUpdateSet({ settings, headers, updated_at: now }))
        .execute();
      return view((await find(ctx, { name: input.name }))!);
    },

    async delete(ctx: CallContext, id: number): Promise<{ id: number; deleted: string }> {
      const result = await db.deleteFrom('import_presets').where('company_id', '=', ctx.companyId).where('id', '=', id).executeTakeFirst();
      if (Number(result.numDeletedRows) === 0) throw notFound(`Mapping preset ${id} was not found`);
      return { id, deleted: formatTimestamp(clock.now()) };
    },
  };
}

export type ImportPresetService = ReturnType<typeof createImportPresetService>;
