import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { FileProblem } from './file-check';
import type { WorkerMessage, WorkerTask } from './worker-protocol';

/**
 * Runs one task in the import worker thread. How the worker's entry is found:
 *
 * - Bundled (dist-electron/main.mjs, where this module's URL ends in .mjs): `import-worker.mjs` beside
 *   the bundle, which the build makes from `xlsx-worker.ts` with the main bundle's esbuild options
 *   (ESM, exceljs external, the createRequire banner) — see `importWorkerBuild` below.
 * - From source (tsx, vitest; this module's URL ends in .ts): `xlsx-worker.ts` beside this file, loaded
 *   through a two-line bootstrap that registers tsx's loader inside the worker first, because a worker
 *   thread does not inherit the loader hooks of the thread that starts it.
 *
 * `entry` overrides both (a test, or a packaging layout of its own).
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

export interface WorkerRunOptions {
  /** Worker entry; default: found as described above. */
  entry?: URL;
  /** The whole task; past it the worker is stopped and the file refused. */
  timeoutMs: number;
  /** Old-generation heap of the worker: a file that needs more is refused, the app lives on. */
  maxHeapMb: number;
  signal?: AbortSignal;
}

export class ImportCanceled extends Error {
  constructor() {
    super('The import was canceled');
    this.name = 'ImportCanceled';
  }
}

function spawn(task: WorkerTask, options: WorkerRunOptions, env: NodeJS.ProcessEnv): Worker {
  // a roomy young generation: parsing makes short-lived objects by the million, and a small one spends a third of the time collecting them
  const resourceLimits = { maxOldGenerationSizeMb: options.maxHeapMb, maxYoungGenerationSizeMb: 64 };
  if (options.entry) return new Worker(options.entry, { workerData: task, resourceLimits, env });
  const here = import.meta.url;
  if (!/\.[mc]?ts$/.test(new URL(here).pathname)) {
    return new Worker(new URL('./import-worker.mjs', here), { workerData: task, resourceLimits, env });
  }
  const entry = new URL('./xlsx-worker.ts', here).href;
  // tsx's ESM API (its package exports name the .mjs only for `import`, so it is found from package.json)
  const tsx = new URL('./dist/esm/api/index.mjs', pathToFileURL(createRequire(here).resolve('tsx/package.json'))).href;
  const bootstrap = `import(${JSON.stringify(tsx)}).then((m) => { (m.register ?? m.default.register)(); return import(${JSON.stringify(entry)}); })
    .catch((e) => import('node:worker_threads').then(({ parentPort }) => parentPort.postMessage({ type: 'crash', message: String((e && e.stack) || e) })));`;
  return new Worker(bootstrap, { eval: true, workerData: task, resourceLimits, execArgv: [], env });
}

/**
 * Starts the worker on `task` and feeds its messages to `onMessage`. Resolves when the task is done
 * (done / file), rejects with FileProblem (the file), ImportCanceled (the signal) or Error (a crash).
 */
export function runWorker(task: WorkerTask, onMessage: (message: WorkerMessage) => void, options: WorkerRunOptions): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (options.signal?.aborted) {
      reject(new ImportCanceled());
      return;
    }
    // exceljs parks a sheet that comes before the shared strings in a temp file and removes it only when it
    // reads to the end: each worker gets its own temp folder, removed with the worker.
    const temp = mkdtempSync(path.join(tmpdir(), 'shipdesk-import-'));
    const worker = spawn(task, options, { ...process.env, TMPDIR: temp, TMP: temp, TEMP: temp });
    let settled = false;
    const finish = (error?: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      void worker.terminate().finally(() => rmSync(temp, { recursive: true, force: true }));
      if (error) reject(error);
      else resolve();
    };
    const onAbort = () => finish(new ImportCanceled());
    options.signal?.addEventListener('abort', onAbort);
    const timer = setTimeout(
      () => finish(new FileProblem('unreadable', `Reading the workbook took longer than ${Math.round(options.timeoutMs / 1000)} s; it was stopped. Split it into smaller files.`)),
      options.timeoutMs,
    );
    worker.on('message', (message: WorkerMessage) => {
      if (settled) return;
      switch (message.type) {
        case 'problem':
          finish(new FileProblem(message.kind, message.message));
          return;
        case 'crash':
          finish(new Error(`import worker: ${message.message}`));
          return;
        default:
          try {
            onMessage(message);
          } catch (error) {
            finish(error as Error);
            return;
          }
          if (message.type === 'done' || message.type === 'file') finish();
      }
    });
    worker.on('error', (error: Error & { code?: string }) => {
      if (error.code === 'ERR_WORKER_OUT_OF_MEMORY') {
        finish(new FileProblem('too-large', `The workbook needs more than ${options.maxHeapMb} MB of memory to read; it was stopped. Split it into smaller files.`));
      } else finish(error);
    });
    worker.on('exit', (code) => finish(new Error(`import worker stopped (exit code ${code}) before finishing`)));
  });
}
