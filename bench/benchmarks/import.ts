import { rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { benchTempDir, fileExists, spawnTs } from '../lib/child';
import { largest, mb, round } from '../lib/stats';
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
 * Pairs of runs (baseline, then ours, each in a fresh process) in a full run; one in --quick.
 * BENCH_IMPORT_PAIRS overrides it (profiling one run). exceljs' read alone varies 2.5 × between quiet
 * runs on a shared 2-core machine: one pair says little, the medians of five say more.
 */
const pairsOf = (quick: boolean) => {
  const asked = Number(process.env.BENCH_IMPORT_PAIRS);
  return Number.isInteger(asked) && asked > 0 ? asked : quick ? 1 : 5;
};

/** The middle value (the mean of the two middle ones for an even count). */
const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** Every run's time (ms1, ms2…), their median, least, most and spread (most − least, in % of the median). */
function runFigures(ms: readonly number[]): Record<string, number> {
  const mid = median(ms);
  const least = Math.min(...ms);
  const most = largest(ms);
  return {
    ms: mid,
    msMin: least,
    msMax: most,
    msSpreadPct: mid > 0 ? ((most - least) / mid) * 100 : 0,
    ...Object.fromEntries(ms.map((v, i) => [`ms${i + 1}`, v])),
  };
}

/**
 * A 20,000-row workbook (10,000 orders × 2 item rows) imported in sync mode, in a fresh process:
 * time to the answer, peak RSS, largest main-thread stall. Baseline: exceljs' streaming read of the
 * same bytes in a fresh process. Baseline and ours alternate (B O B O …); the ratio is the median of
 * ours ÷ the median of the baseline, peak RSS and stall the worst of every run.
 */
export const importBench: Benchmark = {
  name: 'import',
  title: 'xlsx import, 10,000 orders × 2 item rows, sync mode, against exceljs streaming read (5 pairs of runs, medians)',
  async run(ctx) {
    if (!fileExists('electron/core/import/import-service.ts')) throw new Skip('the import engine (electron/core/import/import-service.ts) does not exist yet');
    const orders = ctx.quick ? 200 : 10_000;
    const pairs = pairsOf(ctx.quick);
    const tmp = benchTempDir('import');
    try {
      const file = join(tmp.dir, 'orders.xlsx');
      await writeOrdersWorkbook(file, orders, 2, 4242);
      const bases: Result[] = [];
      const ours: Result[] = [];
      for (let i = 1; i <= pairs; i++) {
        const base = await runWorker('bench/workers/import-baseline.ts', ['--file', file]);
        bases.push(base);
        // each import into a data folder of its own (the same clientNumbers again would all be duplicates);
        // only the first waits for the outbox to register its orders (allRegisteredAtMs, after the answer)
        const dataDir = join(tmp.dir, `data-${i}`);
        const run = await runWorker('bench/workers/import-ours.ts', ['--file', file, '--data-dir', dataDir, ...(i > 1 ? ['--answer-only'] : [])]);
        ours.push(run);
        rmSync(dataDir, { recursive: true, force: true });
        ctx.log(`import: pair ${i}/${pairs}: exceljs ${round(base.ms)} ms, ours ${round(run.ms)} ms (${round(run.ms / base.ms, 2)} ×), load ${round(loadavg()[0])}`);
      }
      // the phases of the run whose time is the median
      const sorted = [...ours].sort((a, b) => a.ms - b.ms);
      const typical = sorted[Math.ceil(sorted.length / 2) - 1];
      const first = ours[0];
      const phases = (typical.phases ?? {}) as Record<string, number>;
      const phaseRss = (typical.phaseRss ?? {}) as Record<string, number>;
      const notes: string[] = [];
      ours.forEach((o, i) => {
        if (o.created !== orders) notes.push(`run ${i + 1}: only ${o.created} of ${orders} orders created; first failure: ${o.firstFailure}`);
      });
      const oursMs = ours.map((o) => o.ms);
      const baseMs = bases.map((b) => b.ms);
      const pairRatios = ours.map((o, i) => o.ms / bases[i].ms);
      return {
        params: { orders, rows: orders * 2, mode: 'sync', pairs },
        figures: {
          ...runFigures(oursMs),
          peakRssMb: mb(largest(ours.map((o) => o.peakRssBytes))),
          rssBeforeMb: mb(largest(ours.map((o) => o.rssBeforeBytes))),
          maxStallMs: largest(ours.map((o) => o.maxStallMs)),
          loopDelayP99Ms: largest(ours.map((o) => o.loopDelayP99Ms)),
          created: Math.min(...ours.map((o) => Number(o.created))),
          pairRatioMin: Math.min(...pairRatios),
          pairRatioMax: largest(pairRatios),
          registeredInAnswer: Number(first.registered),
          // after the answer (not in ms), first run only: the outbox registering the orders at the sandbox service
          allRegisteredAtMs: Number(first.allRegisteredMs),
          registeredAtEnd: Number(first.registeredLater),
          mainHeapPeakMb: mb(largest(ours.map((o) => Number(o.peakHeapUsedBytes)))),
          // before the clock (not in ms): esbuild bundling the reading worker from source, which the app ships built
          workerBundleMs: median(ours.map((o) => Number(o.workerBundleMs))),
          ...Object.fromEntries(Object.entries(phases).map(([k, v]) => [`${k}AtMs`, v])),
          ...Object.fromEntries(Object.entries(phaseRss).map(([k, v]) => [`rssAt${k[0].toUpperCase()}${k.slice(1)}Mb`, mb(v)])),
        },
        baseline: {
          what: `exceljs stream.xlsx.WorkbookReader over the same bytes, every cell read (same reader options); ${pairs} run(s), alternating with ours`,
          ...runFigures(baseMs),
          peakRssMb: mb(largest(bases.map((b) => b.peakRssBytes))),
          maxStallMs: largest(bases.map((b) => b.maxStallMs)),
          rows: Number(bases[0].rows),
        },
        ratio: median(oursMs) / median(baseMs),
        ratioOf: 'median import ms ÷ median exceljs streaming read ms',
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
