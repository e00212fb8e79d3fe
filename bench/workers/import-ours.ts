// One import of the generated workbook through the import engine (POST /orders/upload's service call,
// sync mode), in a fresh process so its peak RSS is the import's. The main thread's event loop is
// watched throughout: it is the thread that serves the window and the local API.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createApp } from '../../electron/core/app';
import { silentLogger } from '../../electron/core/logger';
import { createReferenceData } from '../../electron/core/orders/reference-data';
import { prepareWorkerEntry } from '../../electron/core/import/worker-client';
import { importIfExists, peakRssOf, sendToParent } from '../lib/child';
import { countStatements, formatStats } from '../lib/sql-stats';
import { startStallProbe } from '../lib/stall-probe';
import { uploadSettings } from '../lib/xlsx-fixture';

// --settings: a JSON file of other upload settings (columnMap and the rest) than the benchmark workbook's;
// --answer-only: stop at the answer, without waiting for the outbox to register every order (import-wide:
// 100,000 orders registered one by one at the sandbox outlast the benchmark's time limit, and are not its figure)
const { values } = parseArgs({ options: { file: { type: 'string' }, 'data-dir': { type: 'string' }, settings: { type: 'string' }, 'answer-only': { type: 'boolean', default: false } } });

interface UploadItem {
  orderId?: number;
  providerNumber?: string | null;
  code?: string;
  description?: string;
}
interface ImportService {
  upload(ctx: { companyId: number }, request: unknown): Promise<{ resultItems: UploadItem[] } | { status: string }>;
  stop?(cancel?: boolean): Promise<void>;
}

async function main() {
  const engine = await importIfExists<{ createImportService?: (deps: unknown) => ImportService }>('electron/core/import/import-service.ts');
  const schemas = await importIfExists<{ uploadRequestSchema?: { parse(v: unknown): unknown } }>('shared/schemas/upload.ts');
  if (!engine?.createImportService || !schemas?.uploadRequestSchema) {
    await sendToParent({ type: 'skip', reason: 'electron/core/import/import-service.ts (createImportService) or shared/schemas/upload.ts is missing' });
    return;
  }
  const app = await createApp({ dataDir: values['data-dir']!, log: silentLogger, startWorkers: true });
  const ctx = await app.desktopContext();
  const sqlStats = process.env.BENCH_SQL_STATS ? countStatements(app.sqlite) : null;
  // The service as the app wires it, or built from the app's parts the same way.
  const wired = (app.services as Record<string, unknown>).import ?? (app.services as Record<string, unknown>).imports;
  const service: ImportService =
    (wired as ImportService | undefined) ??
    engine.createImportService({
      db: app.db, sqlite: app.sqlite, drafts: app.stores.drafts, imports: app.stores.imports, clock: app.clock, log: silentLogger, events: app.events,
      providers: app.providers, outbox: app.outbox, reference: createReferenceData(app.stores.reference),
    });

  const phases: Record<string, number> = {};
  const phaseRss: Record<string, number> = {};
  const phasePeakRss: Record<string, number> = {};
  // Where the memory is: RSS (all threads) and the main thread's heap, sampled every 50 ms.
  let peakHeapUsed = 0;
  const sampler = setInterval(() => (peakHeapUsed = Math.max(peakHeapUsed, process.memoryUsage().heapUsed)), 50);
  const bytes = readFileSync(values.file!);
  const settings = values.settings ? (JSON.parse(readFileSync(values.settings, 'utf8')) as typeof uploadSettings) : uploadSettings;
  const request = schemas.uploadRequestSchema.parse({ ...settings, mode: 'sync', file: { base64: bytes.toString('base64') } });
  // From source the reading worker is bundled by esbuild on its first start in a process; the app ships it
  // built (dist-electron/import-worker.mjs), so that step is done before the clock starts. Starting the
  // worker thread and loading its bundle stay in the measured time, as in the app.
  const bundling = performance.now();
  await prepareWorkerEntry();
  const workerBundleMs = performance.now() - bundling;
  const rssBefore = process.memoryUsage().rss;
  const started = performance.now();
  app.events.subscribe((e) => {
    if (e.type === 'import.progress' && typeof e.status === 'string' && phases[e.status] === undefined) {
      phases[e.status] = performance.now() - started;
      phaseRss[e.status] = process.memoryUsage().rss;
      phasePeakRss[e.status] = peakRssOf(process.pid); // the peak of every phase before this one
      if (sqlStats) {
        console.error(`SQL before ${e.status}:\n${formatStats(sqlStats.report())}`);
        sqlStats.reset();
      }
    }
  });
  const probe = startStallProbe();
  const answer = await service.upload(ctx, request);
  const ms = performance.now() - started;
  const stalls = probe.stop();
  clearInterval(sampler);
  if (process.env.BENCH_CPU_PROF) console.error(`import stall: --window ${stalls.maxStallAtUs}:${Math.ceil(stalls.maxStallMs + 10)}`);
  const items = 'resultItems' in answer ? answer.resultItems : [];
  const created = items.filter((i) => i.orderId !== undefined).length;
  const registered = items.filter((i) => i.providerNumber).length;
  const firstFailure = items.find((i) => i.orderId === undefined);
  // Not part of the figure above: how long until the delivery service has numbered every order (a large
  // sync upload answers once its orders are stored; the outbox registers them after). Told beside it.
  const unregistered = app.sqlite.prepare("SELECT count(*) FROM orders WHERE provider_number IS NULL AND status_key = 'uploading'").pluck();
  while (!values['answer-only'] && (unregistered.get() as number) > 0 && performance.now() - started < 300_000) await app.outbox.drain();
  const allRegisteredMs = performance.now() - started;
  const registeredLater = app.sqlite.prepare('SELECT count(*) FROM orders WHERE provider_number IS NOT NULL').pluck().get() as number;
  await service.stop?.(true);
  await app.close();
  await sendToParent({
    type: 'result',
    ms,
    ...stalls,
    peakRssBytes: process.resourceUsage().maxRSS * 1024,
    rssBeforeBytes: rssBefore,
    workerBundleMs,
    orders: items.length,
    created,
    registered,
    allRegisteredMs,
    registeredLater,
    phases,
    phaseRss,
    phasePeakRss,
    peakHeapUsedBytes: peakHeapUsed,
    firstFailure: firstFailure ? `${firstFailure.code} ${firstFailure.description}` : undefined,
  });
}

main().then(
  () => process.exit(0),
  async (error) => {
    console.error(error);
    await sendToParent({ type: 'error', message: error instanceof Error ? (error.stack ?? error.message) : String(error) }).catch(() => {});
    process.exit(1);
  },
);
