import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDataDir } from '../../../test/helpers/test-app';
import { systemClock } from '../clock';
import { createEventBus } from '../events';
import { createFileLog, logsDir } from '../logging/file-log';
import { createImportJobs } from './import-jobs';
import type { ImportPipeline, Job } from './import-pipeline';
import type { ImportStore } from './import-store';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((clean) => clean()));

const logLines = (dir: string) =>
  readdirSync(logsDir(dir))
    .filter((name) => name.endsWith('.log'))
    .flatMap((name) => readFileSync(join(logsDir(dir), name), 'utf8').split('\n').filter(Boolean))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

/** The import's row as the jobs record it (the store's own behaviour is tested with the database). */
function recordedRows() {
  const rows = new Map<number, Record<string, unknown>>();
  const store = {
    update: async (importId: number, set: Record<string, unknown>) => void rows.set(importId, { ...rows.get(importId), ...set }),
    counts: async () => ({ recorded: 0, created: 0, firstOrderId: null, lastOrderId: null }),
  } as unknown as ImportStore;
  return { rows, store };
}

const job = (importId: number, companyId: number) => ({ ctx: { companyId }, importId, dryRun: false }) as unknown as Omit<Job, 'signal'>;

describe("an import's log lines", () => {
  it('name the company and the import, when it ends and when it fails, in the JSON log file', async () => {
    const data = tempDataDir('shipdesk-import-log-');
    cleanups.push(data.remove);
    const { log, close } = await createFileLog(data.dir);
    const { rows, store } = recordedRows();
    const pipeline = {
      execute: async (run: Job) => {
        if (run.importId === 8) throw new Error('the disk went away');
        return { entries: [{}, {}, { failure: { message: 'no phone' } }], sheetName: 'Orders' };
      },
    } as unknown as ImportPipeline;
    const jobs = createImportJobs({ clock: systemClock, log, events: createEventBus(), store, pipeline });

    await jobs.run(job(7, 3));
    await expect(jobs.run(job(8, 4))).rejects.toThrow('the disk went away');
    await close();

    const lines = logLines(data.dir);
    expect(lines.find((line) => line.importId === 7)).toMatchObject({ level: 'info', companyId: 3, importId: 7, created: 2, failed: 1 });
    expect(lines.find((line) => line.importId === 8)).toMatchObject({ level: 'error', companyId: 4, importId: 8, err: { message: 'the disk went away' } });
    expect(rows.get(8)).toMatchObject({ status: 'failed' });
  });
});
