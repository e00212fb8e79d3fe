import type { ImportOptions } from './import-options';
import { createWorkerPool, type OnWorkerMessage } from './worker-client';
import type { WorkerTask } from './worker-protocol';

/**
 * The reading workers of an import service: at most `maxConcurrentReads` tasks at once (reads and errors
 * files alike); the others wait their turn in order.
 */
export function createImportReaders(options: ImportOptions) {
  const workers = createWorkerPool({ timeoutMs: options.readTimeoutMs, maxHeapMb: options.workerHeapMb, entry: options.workerEntry });
  let busy = 0;
  const waiting: (() => void)[] = [];

  return {
    async run(task: WorkerTask, onMessage: OnWorkerMessage, signal?: AbortSignal): Promise<void> {
      if (busy >= options.maxConcurrentReads) await new Promise<void>((resolve) => waiting.push(resolve));
      busy++;
      try {
        await workers.run(task, onMessage, signal);
      } finally {
        busy--;
        waiting.shift()?.();
      }
    },
    /** Keeps a reading worker started ahead, so an import does not wait for one. */
    prewarm: () => workers.prewarm(),
    close: () => workers.close(),
  };
}

export type ImportReaders = ReturnType<typeof createImportReaders>;
