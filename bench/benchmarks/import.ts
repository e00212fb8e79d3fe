import { join } from 'node:path';
import { benchTempDir, fileExists, spawnTs } from '../lib/child';
import { mb } from '../lib/stats';
import { Skip, type Benchmark } from '../lib/report';
import { writeOrdersWorkbook } from '../lib/xlsx-fixture';

type Result = {
  type: 'result';
  ms: number;
  maxStallMs: number;
  loopDelayP99Ms: number;
  peakRssBytes: number;
  rssBeforeBytes: number;
  [k: string]: unknown;
};
type Msg = Result | { type: 'skip'; reason: string } | { type: 'error'; message: string };

export async function runWorker(file: string, args: string[]): Promise<Result> {
  const child = spawnTs<Msg>(file, args);
  try {
    const m = await child.next();
    if (m.type === 'skip') throw new Skip(m.reason);
    if (m.type === 'error') throw new Error(`${file}: ${m.message}`);
    return m;
  } finally {
    await child.finish();
  }
}

/**
 * A 20,000-row workbook (10,000 orders × 2 item rows) imported in sync mode, in a fresh process:
 * time to the answer, peak RSS, largest main-thread stall. Baseline: exceljs' streaming read of the
 * same bytes in a fresh process.
 */
export const importBench: Benchmark = {
  name: 'import',
  title: 'xlsx import, 10,000 orders × 2 item rows, sync mode, against exceljs streaming read',
  async run(ctx) {
    if (!fileExists('electron/core/import/import-service.ts')) throw new Skip('the import engine (electron/core/import/import-service.ts) does not exist yet');
    const orders = ctx.quick ? 200 : 10_000;
    const tmp = benchTempDir('import');
    try {
      const file = join(tmp.dir, 'orders.xlsx');
      await writeOrdersWorkbook(file, orders, 2, 4242);
      ctx.log(`import: ${orders * 2} rows written; exceljs baseline`);
      const base = await runWorker('bench/workers/import-baseline.ts', ['--file', file]);
      ctx.log('import: through the import engine (sync)');
      const ours = await runWorker('bench/workers/import-ours.ts', ['--file', file, '--data-dir', join(tmp.dir, 'data')]);
      const phases = (ours.phases ?? {}) as Record<string, number>;
      const phaseRss = (ours.phaseRss ?? {}) as Record<string, number>;
      const notes: string[] = [];
      if (ours.created !== orders) notes.push(`only ${ours.created} of ${orders} orders created; first failure: ${ours.firstFailure}`);
      return {
        params: { orders, rows: orders * 2, mode: 'sync' },
        figures: {
          ms: ours.ms,
          peakRssMb: mb(ours.peakRssBytes),
          rssBeforeMb: mb(ours.rssBeforeBytes),
          maxStallMs: ours.maxStallMs,
          loopDelayP99Ms: ours.loopDelayP99Ms,
          created: Number(ours.created),
          registeredInAnswer: Number(ours.registered),
          // after the answer (not in ms): the outbox registering the orders at the sandbox service
          allRegisteredAtMs: Number(ours.allRegisteredMs),
          registeredAtEnd: Number(ours.registeredLater),
          mainHeapPeakMb: mb(Number(ours.peakHeapUsedBytes)),
          ...Object.fromEntries(Object.entries(phases).map(([k, v]) => [`${k}AtMs`, v])),
          ...Object.fromEntries(Object.entries(phaseRss).map(([k, v]) => [`rssAt${k[0].toUpperCase()}${k.slice(1)}Mb`, mb(v)])),
        },
        baseline: {
          what: 'exceljs stream.xlsx.WorkbookReader over the same bytes, every cell read (same reader options)',
          ms: base.ms,
          peakRssMb: mb(base.peakRssBytes),
          maxStallMs: base.maxStallMs,
          rows: Number(base.rows),
        },
        ratio: ours.ms / base.ms,
        ratioOf: 'import ms ÷ exceljs streaming read ms',
        goals: [
          { figure: 'ratio', op: '<=', limit: 1.5 },
          { figure: 'peakRssMb', op: '<', limit: 400 },
          { figure: 'maxStallMs', op: '<', limit: 100 },
        ],
        notes,
      };
    } finally {
      tmp.remove();
    }
  },
};
