import type { UploadSettings, UploadState } from '../../../shared/schemas/upload';
import type { CallContext } from '../companies/company-service';
import { notFound } from '../errors';
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
import type { CompiledSettings } from './settings';

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
}) {
  const { options, store, jobs, pipeline, readers, compile } = deps;

  async function stagedSource(ctx: CallContext, importId: number) {
    const row = await store.load(ctx, importId);
    const source = store.source(row);
    if (!source) throw notFound(`The file of import ${importId} is no longer kept; choose it again`);
    return { row, source };
  }

  return {
    /** import.preview: stages the workbook and shows its first rows with a guessed header row and column map. */
    async preview(ctx: CallContext, input: { file: { base64: string; name?: string }; rows: number }) {
      const bytes = decodeBase64(input.file.base64, 'file.base64', options.maxFileBytes);
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
      const importId = await store.create(ctx, { origin: 'desktop', mode: 'async', status: 'staged', fileName: input.file.name, bytes });
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
        rows: rows.map((r) => ({
          row: r.row,
          cells: Object.fromEntries(r.cells.flatMap((c, i) => (cellText(c) === '' ? [] : [[columnLetters(i + 1), cellText(c)]]))),
        })),
        suggested: suggestMapping(headers),
      };
    },

    suggestMapping: (headers: { column: string; title: string }[]) => suggestMapping(headers),

    /** import.dryRun: every order of the staged file checked (duplicates in the database included); nothing is created. */
    async dryRun(ctx: CallContext, input: { importId: number; settings: UploadSettings }) {
      const { row, source } = await stagedSource(ctx, input.importId);
      const compiled = await compile(input.settings);
      try {
        const { entries } = await pipeline.execute({ ctx, importId: row.id, bytes: source, compiled, dryRun: true, errorsToFile: false, waitForRegistration: false, signal: new AbortController().signal });
        const failedEntries = entries.filter((e) => e.failure);
        return {
          importId: row.id,
          orders: entries.length,
          valid: entries.length - failedEntries.length,
          failed: failedEntries.length,
          resultItems: failedEntries.map((e) => toResultFailure(e.clientNumber, e.row, e.failure!)),
        };
      } catch (error) {
        throw asAppError(error);
      }
    },

    /**
     * import.run: creates the orders of a staged file in the background. A file that has already run
     * runs again as a new import (a new uploadId), so every run keeps its own results.
     */
    async run(ctx: CallContext, input: { importId: number; settings: UploadSettings; errorsToFile: boolean; target?: 'orders' | 'drafts' }): Promise<UploadState> {
      const { row, source } = await stagedSource(ctx, input.importId);
      const compiled = await compile(input.settings);
      try {
        checkIncomingFile(source, options, input.errorsToFile);
      } catch (error) {
        throw asAppError(error);
      }
      const asDrafts = input.target === 'drafts';
      const taken = row.status === 'staged' && (await store.takeStaged(row.id, input.settings, input.errorsToFile, asDrafts));
      const importId = taken
        ? row.id
        : await store.create(ctx, { origin: 'desktop', mode: 'async', status: 'queued', fileName: row.file_name ?? undefined, bytes: source, settings: input.settings, errorsToFile: input.errorsToFile, asDrafts });
      const answer = await store.state(ctx, importId, 0, 0);
      jobs.start({ ctx, importId, bytes: source, compiled, dryRun: false, errorsToFile: input.errorsToFile, waitForRegistration: false, asDrafts });
      return answer;
    },

    /** import.cancel: stops a running import; orders created before it stay. */
    async cancel(ctx: CallContext, importId: number): Promise<UploadState> {
      await store.load(ctx, importId);
      await jobs.cancel(ctx, importId);
      return store.state(ctx, importId, 0, 0);
    },

    /** import.errorsFile: the workbook with its failed rows marked (made now if the run did not make it). */
    async errorsFile(ctx: CallContext, importId: number): Promise<{ fileName: string; base64: string | null }> {
      const row = await store.load(ctx, importId);
      const fileName = `${(row.file_name ?? 'orders').replace(/\.xlsx$/i, '')} — ошибки.xlsx`;
      if (row.errors_file) return { fileName, base64: row.errors_file.toString('base64') };
      const source = store.source(row);
      if (!source) return { fileName, base64: null };
      const entries = await store.failedEntries(importId);
      if (entries.length === 0) return { fileName, base64: null };
      const settings = row.settings ? (JSON.parse(row.settings) as UploadSettings) : undefined;
      try {
        const file = await pipeline.makeErrorsFile(importId, source, settings?.columnSettings.rowStart ?? 2, entries);
        return { fileName, base64: file.toString('base64') };
      } catch (error) {
        throw asAppError(error);
      }
    },
  };
}
