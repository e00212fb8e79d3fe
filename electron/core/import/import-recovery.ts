import { ErrorCode } from '../../../shared/errors';
import type { UploadSettings } from '../../../shared/schemas/upload';
import type { Clock } from '../clock';
import type { Logger } from '../logger';
import type { ImportJobs } from './import-jobs';
import { importLog, type ImportPipeline } from './import-pipeline';
import type { ImportStore } from './import-store';
import type { CompiledSettings } from './settings';

/**
 * After a crash (or a kill, or a power cut), at start: every import left under way is finished or failed
 * plainly, never left `creating` forever. Each write transaction records its orders in import_rows, in file
 * order, so a run is taken up again from its file (kept in the data folder) and its settings after the
 * last order recorded: every row ends created or reported. The create jobs its orders held are released
 * at once. An import whose file or settings are gone is marked failed, saying how far it got.
 */
export function createImportRecovery(deps: {
  clock: Clock;
  log: Logger;
  store: ImportStore;
  jobs: ImportJobs;
  pipeline: ImportPipeline;
  /** The settings compiled as their import's origin compiles them (the wizard leaves some fields to the row mapper). */
  compile: (settings: UploadSettings, origin: 'api' | 'desktop') => Promise<CompiledSettings>;
}) {
  const { clock, log, store, jobs, pipeline, compile } = deps;

  const interrupted = (created: number, reason: string) => ({
    code: ErrorCode.general,
    message: 'Import interrupted',
    description:
      `The app stopped while this import was running and it could not be taken up again: ${reason}. ` +
      `${created} orders were created before (see resultItems); the rest of the file was not imported — upload those rows again.`,
  });

  return async function recover(): Promise<void> {
    await store.moveStoredSources();
    store.removeSpools();
    for (const row of await store.unfinished()) {
      const ctx = { companyId: row.companyId };
      const counts = await store.counts(row.id);
      if (counts.lastOrderId !== null) await pipeline.releaseJobs(row.companyId, counts.firstOrderId!, counts.lastOrderId);
      if (row.status === 'registering') {
        // every order was written; only the wait for the services' numbers was cut short
        await store.update(row.id, { status: 'done', done: counts.recorded, total: counts.recorded, created: counts.created, failed: counts.recorded - counts.created, finishedAt: clock.now() });
        continue;
      }
      const source = store.source(row);
      const fail = (reason: string) =>
        store.update(row.id, { status: 'failed', done: counts.recorded, created: counts.created, failed: counts.recorded - counts.created, error: interrupted(counts.created, reason), finishedAt: clock.now() });
      if (!source || !row.settings) {
        await fail('its file is no longer kept');
        continue;
      }
      let compiled: CompiledSettings;
      try {
        compiled = await compile(row.settings, row.origin === 'desktop' ? 'desktop' : 'api');
      } catch (error) {
        await fail(`its settings are no longer valid (${(error as Error).message})`);
        continue;
      }
      importLog(log, { ctx, importId: row.id }).info(`upload ${row.id}: taken up again after an interruption (${counts.recorded} orders were recorded)`);
      jobs.start({
        ctx,
        importId: row.id,
        bytes: source,
        compiled,
        dryRun: false,
        errorsToFile: row.errorsToFile,
        waitForRegistration: false,
        asDrafts: row.asDrafts,
        language: row.language ?? undefined,
        resumeAfter: counts.recorded,
      });
    }
  };
}
