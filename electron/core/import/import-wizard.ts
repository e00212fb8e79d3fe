import { message, messageText, type MessageLanguage } from '../../../shared/messages';
import { said } from '../../../shared/messages';
import type { UploadSettings, UploadState } from '../../../shared/schemas/upload';
import type { CallContext } from '../companies/company-service';
import type { ServiceReach } from '../orders/service-reach';
import { notFound, validationError } from '../errors';
import { cellText, type SheetRow } from './cells';
import { columnLetters } from './columns';
import type { WorkbookInfo } from './file-check';
import { detectHeaderRow, headerCells, suggestMapping } from './header-suggest';
import { toResultFailure } from './import-failures';
import type { ImportJobs } from './import-jobs';
import type { ImportOptions } from './import-options';
import type { ImportPipeline } from './import-pipeline';
import type { ImportReaders } from './import-readers';
import type { ImportStore } from './import-store';
import { asAppError, checkIncomingFile, decodeBase64 } from './incoming-file';
import { importFields } from '../import-presets/import-fields';
import { importTemplate } from '../import-presets/import-template';
import { detectPlatform, platformMapping, platformPresets } from '../import-presets/platform-presets';
import { addressParts, uploadKeys } from './keys';
import type { CompiledSettings } from './settings';
import { taskSource } from './worker-protocol';

/**
 * Fields of the upload table the wizard does not ask for, because it fills them as the order form does:
 * the weight from the items (or the parcel's from the order's), sizes and item weights left out, the
 * declared value from the items, the delivery and pickup types from the tariff chosen.
 */
export const wizardOptional: ReadonlySet<string> = new Set([
  'order.weight', 'order.pickupType', 'order.deliveryType', 'cost.assessedCost',
  'place.height', 'place.width', 'place.length', 'place.weight', 'item.weight', 'item.quantity',
]);

/**
 * The wizard's settings completed with what the shop has set up already: the default sender profile
 * for every sender field no column gives (its address only when no sender address column is mapped),
 * and one piece of each item unless its cell says how many.
 */
export function completeWizardSettings(settings: UploadSettings, sender: Record<string, unknown> | undefined): UploadSettings {
  const defaults = { ...(settings.defaultData ?? {}) };
  const given = (key: string) => Boolean(settings.columnMap[key]?.trim() || defaults[key]?.trim());
  if (!defaults['item.quantity']?.trim()) defaults['item.quantity'] = '1'; // an empty quantity cell too
  if (sender) {
    const addressNames: readonly string[] = ['addressString', ...addressParts];
    const addressMapped = addressNames.some((name) => given(`sender.${name}`));
    for (const [name, value] of Object.entries(sender)) {
      const key = `sender.${name}`;
      if (!Object.hasOwn(uploadKeys, key) || given(key) || (typeof value !== 'string' && typeof value !== 'number') || String(value).trim() === '') continue;
      if (addressMapped && addressNames.includes(name)) continue;
      defaults[key] = String(value);
    }
  }
  return { ...settings, defaultData: defaults };
}

/**
 * The desktop import wizard (`import.*` commands): a file is staged and previewed, its mapping tried
 * (dry run: nothing created), then run in the background, canceled, its errors file asked for.
 */
export function createImportWizard(deps: {
  options: ImportOptions;
  store: ImportStore;
  jobs: ImportJobs;
  pipeline: ImportPipeline;
  readers: ImportReaders;
  compile: (settings: UploadSettings) => Promise<CompiledSettings>;
  defaultSender?: (ctx: CallContext) => Promise<Record<string, unknown> | undefined>;
  /** A new check of what the delivery service will refuse, for one run (it remembers the rates it asked). */
  reach?: () => ServiceReach;
}) {
  const { options, store, jobs, pipeline, readers, compile } = deps;
  const complete = async (ctx: CallContext, settings: UploadSettings) => completeWizardSettings(settings, await deps.defaultSender?.(ctx));

  async function stagedSource(ctx: CallContext, importId: number) {
    const row = await store.load(ctx, importId);
    const source = store.source(row);
    if (!source) throw notFound(said('notFound.importFile', { id: importId }));
    return { row, source };
  }

  /** import.suggestMapping: a platform's ready mapping when one is named (or the titles look like its export), else the guess. */
  function suggest(input: { headers: { column: string; title: string }[]; platform?: string }) {
    const preset = input.platform ? platformPresets.find((p) => p.id === input.platform) : detectPlatform(input.headers);
    if (input.platform && !preset) throw validationError([{ field: 'platform', message: `is not one of ${platformPresets.map((p) => p.id).join(', ')}` }]);
    return preset ? platformMapping(preset, input.headers) : suggestMapping(input.headers);
  }

  return {
    /** import.preview: stages the workbook and shows its first rows with a guessed header row and column map. */
    async preview(ctx: CallContext, input: { file: { base64: string; name?: string }; rows: number }) {
      const bytes = await decodeBase64(input.file.base64, 'file.base64', options.maxFileBytes);
      await store.prune();
      let info: WorkbookInfo | undefined;
      const rows: SheetRow[] = [];
      try {
        await readers.run({ kind: 'read', bytes, limits: options, read: { fromRow: 1, dataFrom: 1, stopAfterRows: input.rows } }, (m) => {
          if (m.type === 'workbook') info = m.info;
          else if (m.type === 'rows') rows.push(...m.rows);
        });
      } catch (error) {
        throw asAppError(error);
      }
      const { id: importId } = await store.create(ctx, { origin: 'desktop', mode: 'async', status: 'staged', fileName: input.file.name, bytes });
      const headerRow = detectHeaderRow(rows);
      const headers = headerCells(rows.find((r) => r.row === headerRow));
      return {
        importId,
        fileName: input.file.name ?? null,
        sheetName: info!.sheetName,
        sheetNames: info!.sheetNames,
        headerRow,
        rowStart: headerRow + 1,
        headers,
        rows: rows.map((r) => {
          const ofKind = (kind: (c: unknown) => boolean) => r.cells.flatMap((c, i) => (kind(c) ? [[columnLetters(i + 1), cellText(c)]] : []));
          const dates = ofKind((c) => c instanceof Date);
          const numbers = ofKind((c) => typeof c === 'number');
          return {
            row: r.row,
            cells: Object.fromEntries(r.cells.flatMap((c, i) => (cellText(c) === '' ? [] : [[columnLetters(i + 1), cellText(c)]]))),
            ...(dates.length ? { dates: Object.fromEntries(dates) } : {}),
            ...(numbers.length ? { numbers: Object.fromEntries(numbers) } : {}),
          };
        }),
        suggested: suggest({ headers }),
      };
    },

    /** import.fields: the upload table's fields as the wizard asks for them. */
    fields: async (ctx: CallContext) => importFields((await deps.defaultSender?.(ctx)) !== undefined),

    suggestMapping: suggest,

    platforms: () => platformPresets.map((p) => ({ id: p.id, name: p.name })),

    /** import.template: our own order template. */
    template: async () => ({ fileName: 'Шаблон заказов ShipDesk.xlsx', base64: (await importTemplate()).toString('base64') }),

    /** import.dryRun: every order of the staged file checked (duplicates in the database included); nothing is created. */
    async dryRun(ctx: CallContext, input: { importId: number; settings: UploadSettings }) {
      const { row, source } = await stagedSource(ctx, input.importId);
      const compiled = await compile(await complete(ctx, input.settings));
      try {
        const { entries } = await pipeline.execute({
          ctx, importId: row.id, bytes: source, compiled, dryRun: true, errorsToFile: false, waitForRegistration: false, signal: new AbortController().signal, reach: deps.reach?.(),
        });
        const failedEntries = entries.filter((e) => e.failure);
        return {
          importId: row.id,
          orders: entries.length,
          valid: entries.length - failedEntries.length,
          failed: failedEntries.length,
          resultItems: failedEntries.map((e) => toResultFailure(e.clientNumber, e.row, e.failure!, true)),
        };
      } catch (error) {
        throw asAppError(error);
      }
    },

    /**
     * import.run: creates the orders of a staged file in the background. A file that has already run
     * runs again as a new import (a new uploadId), so every run keeps its own results.
     */
    async run(ctx: CallContext, given: { importId: number; settings: UploadSettings; errorsToFile: boolean; target?: 'orders' | 'drafts'; language?: MessageLanguage }): Promise<UploadState> {
      const input = { ...given, settings: await complete(ctx, given.settings) };
      const { row, source } = await stagedSource(ctx, input.importId);
      const compiled = await compile(input.settings);
      try {
        checkIncomingFile(source, options, input.errorsToFile);
      } catch (error) {
        throw asAppError(error);
      }
      const asDrafts = input.target === 'drafts';
      const language = input.language;
      const taken = row.status === 'staged' && (await store.takeStaged(row.id, { settings: input.settings, errorsToFile: input.errorsToFile, asDrafts, language }));
      const running = taken
        ? row
        : await store.create(ctx, { origin: 'desktop', mode: 'async', status: 'queued', fileName: row.fileName ?? undefined, bytes: source, settings: input.settings, errorsToFile: input.errorsToFile, asDrafts, language });
      const importId = running.id;
      const answer = await store.state(ctx, importId, 0, 0);
      jobs.start({ ctx, importId, bytes: source, file: store.sourceFile(running), compiled, dryRun: false, errorsToFile: input.errorsToFile, waitForRegistration: false, asDrafts, language, reach: deps.reach?.() });
      return answer;
    },

    /** import.cancel: stops a running import; orders created before it stay. */
    async cancel(ctx: CallContext, importId: number): Promise<UploadState> {
      await store.load(ctx, importId);
      await jobs.cancel(ctx, importId);
      return store.state(ctx, importId, 0, 0);
    },

    /**
     * import.errorsFile: the workbook with its failed rows marked (made now if the run did not make it), in the
     * language of the window asking (else the one that started the run, else the app's setting). A file the run
     * kept is in the language of the window that started it.
     */
    async errorsFile(ctx: CallContext, importId: number, window?: MessageLanguage): Promise<{ fileName: string; base64: string | null }> {
      const row = await store.load(ctx, importId);
      const language = await pipeline.languageOfFiles(window ?? row.language);
      const fileName = `${messageText(message('import.errorsFileName', { name: (row.fileName ?? 'orders').replace(/\.xlsx$/i, '') }), language)}.xlsx`;
      const kept = store.errorsFile(row);
      if (kept) return { fileName, base64: kept.toString('base64') };
      const source = store.sourceFile(row); // the worker reads the kept workbook there: none of it goes through this thread
      if (!source) return { fileName, base64: null };
      const entries = await store.failedEntries(importId);
      if (entries.length === 0) return { fileName, base64: null };
      const settings = row.settings ?? undefined;
      try {
        const file = await pipeline.makeErrorsFile(ctx, importId, taskSource({ file: source }), settings?.columnSettings.rowStart ?? 2, entries, language);
        return { fileName, base64: file.toString('base64') };
      } catch (error) {
        throw asAppError(error);
      }
    },
  };
}
