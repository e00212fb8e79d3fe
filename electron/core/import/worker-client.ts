import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { FileProblem } from './file-check';
import type { MainMessage, WorkerMessage, WorkerTask } from './worker-protocol';

/**
 * Runs tasks in the import worker thread, one task per worker (a fresh heap each time; the worker is
 * ended with its task). How the worker's entry is found:
 *
 * - Bundled (dist-electron/main.mjs, where this module's URL ends in .mjs): `import-worker.mjs` beside
 *   the bundle, which the build makes from `xlsx-worker.ts` with the main bundle's esbuild options
 *   (ESM, exceljs external, the createRequire banner) — see `importWorkerBuild` below.
 * - From source (tsx, vitest; this module's URL ends in .ts): `xlsx-worker.ts` beside this file, bundled
 *   once per process with esbuild (a dev dependency) into node_modules/.cache/shipdesk-import-worker/,
 *   named by its content, exceljs imported by its absolute URL; if esbuild is not there, loaded through a
 *   bootstrap that registers tsx's loader inside the worker (a worker does not inherit the loader hooks
 *   of the thread that starts it; that start is slower).
 *
 * `entry` overrides both (a test, or a packaging layout of its own).
 *
 * A worker starts idle and gets its task by message, so one can be started ahead (`prewarm`): loading
 * starting a thread is then off the import's path. A pool keeps at most one such spare.
 */

/** The esbuild options of the worker bundle, for the build script beside the main bundle's. */
export const importWorkerBuild = {
  entryPoints: ['electron/core/import/xlsx-worker.ts'],
  outfile: 'dist-electron/import-worker.mjs',
  bundle: true,
  platform: 'node' as const,
  target: 'node20',
  format: 'esm' as const,
  external: ['exceljs'],
  banner: { js: "import { createRequire as __shipdeskCreateRequire } from 'node:module'; const require = __shipdeskCreateRequire(import.meta.url);" },
};

export interface WorkerOptions {
  /** Worker entry; default: found as described above. */
  entry?: URL;
  /** The whole task; past it the worker is stopped and the file refused. */
  timeoutMs: number;
  /** Old-generation heap of the worker: a file that needs more is refused, the app lives on. */
  maxHeapMb: number;
}

export interface WorkerRunOptions extends WorkerOptions {
  signal?: AbortSignal;
}

export class ImportCanceled extends Error {
  constructor() {
    super('The import was canceled');
    this.name = 'ImportCanceled';
  }
}

interface IdleWorker {
  worker: Worker;
  /** The worker's own temp folder, removed with it. */
  temp: string;
  /** Errors and exits before a task is given, replayed to the task. */
  early: { error?: Error; exit?: number };
}

let devEntry: Promise<URL | null> | undefined;

/**
 * The flags a worker takes from its process: only V8's CPU profiler's (`node --cpu-prof`, as the benchmarks'
 * BENCH_CPU_PROF starts them), so a profiled process profiles its import workers too (each writes its own
 * file). Nothing else: a loader (tsx's `--import`) is not for the worker.
 */
export function workerExecArgv(execArgv: readonly string[] = process.execArgv): string[] {
  const kept: string[] = [];
  for (let i = 0; i < execArgv.length; i++) {
    const arg = execArgv[i];
    if (arg === '--cpu-prof') kept.push(arg);
    else if (/^--cpu-prof-(dir|interval)=/.test(arg)) kept.push(arg);
    else if ((arg === '--cpu-prof-dir' || arg === '--cpu-prof-interval') && i + 1 < execArgv.length) kept.push(arg, execArgv[++i]);
  }
  return kept;
}

/** From source: the worker bundled with esbuild, once per process (null: no esbuild, use tsx). */
function devWorkerEntry(here: string): Promise<URL | null> {
  devEntry ??= (async () => {
    try {
      const name = 'esbuild'; // not a literal: the app's own bundle must not take esbuild in
      const esbuild = (await import(/* @vite-ignore */ name)) as typeof import('esbuild');
      const require = createRequire(here);
      const exceljs = pathToFileURL(require.resolve('exceljs')).href;
      const result = await esbuild.build({
        ...importWorkerBuild,
        external: [],
        entryPoints: [fileURLToPath(new URL('./xlsx-worker.ts', here))],
        outfile: 'import-worker.mjs',
        write: false,
        logLevel: 'silent',
        plugins: [{ name: 'exceljs-by-url', setup: (b) => b.onResolve({ filter: /^exceljs$/ }, () => ({ path: exceljs, external: true })) }],
      });
      const code = result.outputFiles[0].contents;
      const dir = path.join(path.dirname(require.resolve('exceljs/package.json')), '..', '.cache', 'shipdesk-import-worker');
      const file = path.join(dir, `import-worker-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`);
      if (!existsSync(file)) {
        mkdirSync(dir, { recursive: true });
        const temp = `${file}.${process.pid}.tmp`;
        writeFileSync(temp, code);
        renameSync(temp, file); // atomic: processes building at once write the same bytes
      }
      return pathToFileURL(file);
    } catch {
      return null;
    }
  })();
  return devEntry;
}

/** This module runs from source (tsx, vitest: its URL ends in .ts), not from the app's bundle. */
const fromSource = (here: string) => /\.[mc]?ts$/.test(new URL(here).pathname);

/**
 * From source: bundles the worker now, as the app's build does ahead of time, so the first task started
 * afterwards does not wait for esbuild (≈ 0.5 s at load 8). Gives the bundle's URL; null when bundled (the
 * app: nothing to do) or without esbuild (the worker loads through tsx).
 */
export async function prepareWorkerEntry(): Promise<URL | null> {
  return fromSource(import.meta.url) ? devWorkerEntry(import.meta.url) : null;
}

async function spawnIdle(options: WorkerOptions): Promise<IdleWorker> {
  // Each worker gets its own temp folder, removed with the worker (exceljs, which read the sheet before
  // sheet-reader.ts did, parked sheets there; anything a task writes to TMPDIR is still cleaned up with it).
  const here = import.meta.url;
  const bundled = options.entry ?? (fromSource(here) ? await devWorkerEntry(here) : new URL('./import-worker.mjs', here));
  const temp = mkdtempSync(path.join(tmpdir(), 'shipdesk-import-'));
  const env = { ...process.env, TMPDIR: temp, TMP: temp, TEMP: temp };
  // a roomy young generation: parsing makes short-lived objects by the million, and with a small one
  // (what V8 derives from a capped old generation) a third of the time goes to collecting them. Not
  // roomier: its space is resident while the worker lives (the hostile wide sheet's upload peaked at
  // 355 MB RSS with 64 MB, 329 MB with 32 MB, the rows mapped here)
  const resourceLimits = { maxOldGenerationSizeMb: options.maxHeapMb, maxYoungGenerationSizeMb: 32 };
  let worker: Worker;
  if (bundled) worker = new Worker(bundled, { resourceLimits, env, execArgv: workerExecArgv() });
  else {
    const entry = new URL('./xlsx-worker.ts', here).href;
    // tsx's ESM API (its package exports name the .mjs only for `import`, so it is found from package.json)
    const tsx = new URL('./dist/esm/api/index.mjs', pathToFileURL(createRequire(here).resolve('tsx/package.json'))).href;
    const bootstrap = `import(${JSON.stringify(tsx)}).then((m) => { (m.register ?? m.default.register)(); return import(${JSON.stringify(entry)}); })
      .catch((e) => import('node:worker_threads').then(({ parentPort }) => parentPort.postMessage({ type: 'crash', message: String((e && e.stack) || e) })));`;
    worker = new Worker(bootstrap, { eval: true, resourceLimits, execArgv: workerExecArgv(), env });
  }
  const idle: IdleWorker = { worker, temp, early: {} };
  worker.on('error', (error) => (idle.early.error ??= error));
  worker.on('exit', (code) => (idle.early.exit ??= code));
  worker.unref(); // an idle spare never keeps the process alive
  return idle;
}

const dispose = (idle: IdleWorker) => void idle.worker.terminate().finally(() => rmSync(idle.temp, { recursive: true, force: true }));

/** Takes one message of the worker; `reply` answers it during the task (flow control's acks). */
export type OnWorkerMessage = (message: WorkerMessage, reply: (message: MainMessage) => void) => void;

/**
 * Gives `task` to `idle` and feeds its messages to `onMessage`. Resolves when the task is done
 * (done / file), rejects with FileProblem (the file), ImportCanceled (the signal) or Error (a crash).
 */
function runOn(idle: IdleWorker, task: WorkerTask, onMessage: OnWorkerMessage, options: WorkerRunOptions): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const { worker } = idle;
    worker.ref();
    let settled = false;
    const finish = (error?: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      dispose(idle);
      if (error) reject(error);
      else resolve();
    };
    const reply = (answer: MainMessage) => {
      if (!settled) worker.postMessage(answer);
    };
    const onAbort = () => finish(new ImportCanceled());
    options.signal?.addEventListener('abort', onAbort);
    const timer = setTimeout(
      () => finish(new FileProblem('unreadable', `Reading the workbook took longer than ${Math.round(options.timeoutMs / 1000)} s; it was stopped. Split it into smaller files.`, 'import.problem.unreadable')),
      options.timeoutMs,
    );
    const onError = (error: Error & { code?: string }) => {
      if (error.code === 'ERR_WORKER_OUT_OF_MEMORY') {
        finish(new FileProblem('too-large', `The workbook needs more than ${options.maxHeapMb} MB of memory to read; it was stopped. Split it into smaller files.`, 'import.problem.tooLarge'));
      } else finish(error);
    };
    const onExit = (code: number) => finish(new Error(`import worker stopped (exit code ${code}) before finishing`));
    worker.on('message', (message: WorkerMessage) => {
      if (settled) return;
      switch (message.type) {
        case 'problem':
          finish(new FileProblem(message.kind, message.message, message.key));
          return;
        case 'crash':
          // the error's code comes along: a full disk while writing the errors file is still a full disk (507)
          finish(Object.assign(new Error(`import worker: ${message.message}`), message.code ? { code: message.code } : {}));
          return;
        default:
          try {
            onMessage(message, reply);
          } catch (error) {
            finish(error as Error);
            return;
          }
          if (message.type === 'done' || message.type === 'file') finish();
      }
    });
    worker.on('error', onError);
    worker.on('exit', onExit);
    if (idle.early.error) onError(idle.early.error);
    else if (idle.early.exit !== undefined) onExit(idle.early.exit);
    else if (options.signal?.aborted) finish(new ImportCanceled());
    else worker.postMessage(task);
  });
}

/** Runs one task in a new worker. */
export async function runWorker(task: WorkerTask, onMessage: OnWorkerMessage, options: WorkerRunOptions): Promise<void> {
  if (options.signal?.aborted) throw new ImportCanceled();
  return runOn(await spawnIdle(options), task, onMessage, options);
}

/**
 * Workers for an import service. With `prewarm()` called (the desktop app, after its window shows) one
 * started worker waits for the next task, and a new one is started after each task, off its path.
 */
export function createWorkerPool(options: WorkerOptions) {
  let spare: Promise<IdleWorker> | undefined;
  let warm = false;
  let closed = false;
  const usable = (idle: IdleWorker) => !idle.early.error && idle.early.exit === undefined;
  const take = async () => {
    const waiting = spare;
    spare = undefined;
    const idle = waiting ? await waiting : undefined;
    if (idle && usable(idle)) return idle;
    if (idle) dispose(idle);
    return spawnIdle(options);
  };
  const refill = () => {
    // a little later: starting a worker must not compete with the import's own writing
    if (warm && !closed && !spare) {
      setTimeout(() => {
        if (warm && !closed && !spare) spare = spawnIdle(options);
      }, 2000).unref();
    }
  };
  return {
    async run(task: WorkerTask, onMessage: OnWorkerMessage, signal?: AbortSignal): Promise<void> {
      if (signal?.aborted) throw new ImportCanceled();
      try {
        await runOn(await take(), task, onMessage, { ...options, signal });
      } finally {
        refill();
      }
    },
    /** Keeps one worker started ahead from now on. */
    prewarm() {
      warm = true;
      if (!closed && !spare) spare = spawnIdle(options);
    },
    close() {
      closed = true;
      void spare?.then(dispose);
      spare = undefined;
    },
  };
}

export type WorkerPool = ReturnType<typeof createWorkerPool>;
