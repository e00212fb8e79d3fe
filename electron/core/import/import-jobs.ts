import type { ErrorBody } from '../../../shared/errors';
import { ErrorCode } from '../../../shared/errors';
import type { ImportStatus } from '../../../shared/schemas/upload';
import type { Clock } from '../clock';
import type { CallContext } from '../companies/company-service';
import type { EventBus } from '../events';
import type { Logger } from '../logger';
import { FileProblem } from './file-check';
import { fileProblemBody } from './import-failures';
import { importLog, type ImportPipeline, type Job, type RunOutcome } from './import-pipeline';
import { progressReporter } from './import-progress';
import type { ImportStore } from './import-store';
import { ImportCanceled } from './worker-client';

/**
 * Running imports: each run recorded to its end in its import's row (done, failed with the error body,
 * canceled), background runs kept by id so that they can be canceled, and all of them stopped with the app.
 */

interface Running {
  ctx: CallContext;
  controller: AbortController;
  done: Promise<void>;
}

export function createImportJobs(deps: { clock: Clock; log: Logger; events: EventBus; store: ImportStore; pipeline: ImportPipeline }) {
  const { clock, log, events, store, pipeline } = deps;
  const running = new Map<number, Running>();

  /** Runs a job to its end and records it; failures of the whole file end up in the import's row. */
  async function finish(job: Job): Promise<RunOutcome> {
    const report = progressReporter(events, job.ctx, job.importId);
    try {
      const outcome = await pipeline.execute(job);
      const { entries } = outcome;
      // a run taken up again knows its first orders only as recorded
      const created = job.resumeAfter ? (await store.counts(job.importId)).created : entries.filter((e) => !e.failure).length;
      const failed = entries.length - created;
      await store.update(job.importId, { status: 'done', total: entries.length, done: entries.length, created, failed, finishedAt: clock.now() });
      report('done', entries.length, entries.length, true);
      if (!job.dryRun) importLog(log, job).info(`upload ${job.importId} done: ${created} created, ${failed} failed`, { created, failed });
      return outcome;
    } catch (error) {
      const status: ImportStatus = error instanceof ImportCanceled ? 'canceled' : 'failed';
      let body: ErrorBody | null = null;
      if (error instanceof FileProblem) body = fileProblemBody(error);
      else if (!(error instanceof ImportCanceled)) {
        importLog(log, job).error(`upload ${job.importId} failed`, error);
        body = { code: ErrorCode.internal, message: 'Internal error', description: 'The import stopped because of an error on our side; orders created before it stay' };
      }
      await store.update(job.importId, { status, error: body ?? null, finishedAt: clock.now() }).catch(() => {});
      // a file found unfit only as it was read (a sheet larger than its zip said) is not kept, as one refused before is
      // never stored: no order came of it (the whole file is read before any order is written; a run taken up again
      // after a crash may have written some, and keeps it)
      if (error instanceof FileProblem && !job.dryRun && !job.resumeAfter) await store.forgetFile(job.importId).catch(() => {});
      report(status, 0, 0, true);
      throw error;
    }
  }

  return {
    /** Runs a job now and waits for it (sync uploads, dry runs of the wizard use execute directly). */
    run: (job: Omit<Job, 'signal'>) => finish({ ...job, signal: new AbortController().signal }),

    /** Starts a job in the background; its outcome is recorded in the import's row. */
    start(job: Omit<Job, 'signal'>): void {
      const controller = new AbortController();
      running.set(job.importId, {
        ctx: job.ctx,
        controller,
        done: finish({ ...job, signal: controller.signal })
          .then(() => {}, () => {})
          .finally(() => running.delete(job.importId)),
      });
    },

    /** Stops a background run of the caller's company; orders created before it stay. */
    async cancel(ctx: CallContext, importId: number): Promise<void> {
      const job = running.get(importId);
      if (job && job.ctx.companyId === ctx.companyId) {
        job.controller.abort();
        await job.done;
      }
    },

    /** Waits for the runs under way (app shutdown); with cancel, stops them first. */
    async stop(cancel: boolean): Promise<void> {
      const jobs = [...running.values()];
      if (cancel) for (const j of jobs) j.controller.abort();
      await Promise.all(jobs.map((j) => j.done));
    },
  };
}

export type ImportJobs = ReturnType<typeof createImportJobs>;
