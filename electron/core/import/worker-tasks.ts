import { closeSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import { writeErrorsFile } from './errors-file';
import { FileProblem, inspectWorkbook } from './file-check';
import { readSheet } from './sheet-reader';
import { createWorkerMapping, type WorkerMapping } from './worker-mapping';
import type { MainMessage, WorkerMessage, WorkerTask } from './worker-protocol';

/**
 * Flow control of a read, counted in bytes: the batches of rows sent and not yet taken by the main thread.
 * While `windowBytes` of them are out, reading waits: the sheet stays compressed here instead of piling up
 * as rows over there, however wide or narrow its rows.
 */
export function createFlowControl(windowBytes: number | undefined) {
  const sizes: number[] = [];
  let out = 0;
  let waiting: (() => void) | null = null;
  const emptied: (() => void)[] = [];
  return {
    sent(bytes: number) {
      sizes.push(bytes);
      out += bytes;
    },
    /** The main thread took the oldest batch out. */
    ack() {
      out = Math.max(0, out - (sizes.shift() ?? 0));
      if (sizes.length === 0) for (const resolve of emptied.splice(0)) resolve();
      if (waiting && windowBytes !== undefined && out < windowBytes) {
        const resume = waiting;
        waiting = null;
        resume();
      }
    },
    /** Null while there is room; otherwise a promise kept when there is. */
    room(): Promise<void> | null {
      if (windowBytes === undefined || out < windowBytes) return null;
      return new Promise<void>((resolve) => (waiting = resolve));
    },
    /** Kept once every batch sent has been taken. */
    taken(): Promise<void> {
      if (sizes.length === 0) return Promise.resolve();
      return new Promise<void>((resolve) => emptied.push(resolve));
    },
  };
}

export type FlowControl = ReturnType<typeof createFlowControl>;

type Post = (message: WorkerMessage, transfer?: ArrayBuffer[]) => void;

/**
 * Starts one task of the import worker: `done` is kept when it has ended (reported through `post`),
 * `receive` takes what the main thread says meanwhile (acks, and asks to locate errors of mapped orders).
 */
export function startWorkerTask(task: WorkerTask, post: Post) {
  const flow = createFlowControl(task.kind === 'read' ? task.windowBytes : undefined);
  const mapping = task.kind === 'read' && task.orders ? createWorkerMapping(task.orders) : undefined;
  return {
    done: runWorkerTask(task, post, flow, mapping),
    receive(message: MainMessage) {
      if (message.type === 'ack') {
        flow.ack();
        mapping?.acked();
      } else if (message.type === 'locate') post({ type: 'located', id: message.id, errors: mapping?.locate(message.asks) ?? [] });
    },
  };
}

/** Runs one task of the import worker, reporting through `post`. Never throws. */
export async function runWorkerTask(task: WorkerTask, post: Post, flow: FlowControl = createFlowControl(undefined), mapping?: WorkerMapping): Promise<void> {
  try {
    const bytes = task.file !== undefined ? readFileSync(task.file) : Buffer.from(task.bytes.buffer, task.bytes.byteOffset, task.bytes.byteLength);
    const info = inspectWorkbook(bytes, task.limits);
    post({ type: 'workbook', info });
    if (task.kind === 'read') {
      const summary = await readSheet(
        bytes,
        info,
        {
          ...task.read,
          maxDataRows: task.limits.maxDataRows,
          maxSheetXmlBytes: task.limits.maxUncompressedBytes,
          onDimension: (ref) => post({ type: 'dimension', ref }),
          room: flow.room,
        },
        (rows, bytes) => {
          flow.sent(bytes);
          post(mapping ? { type: 'orders', orders: mapping.take(rows), rows: rows.length } : { type: 'rows', rows });
        },
      );
      if (mapping) {
        flow.sent(0);
        post({ type: 'orders', orders: mapping.finish(), rows: 0 });
        await flow.taken(); // the main thread may still ask where its errors are
      }
      post({ type: 'done', summary });
    } else {
      mkdirSync(path.dirname(task.outPath), { recursive: true });
      const fd = openSync(task.outPath, 'w');
      let size = 0;
      try {
        await writeErrorsFile(bytes, { info, marks: task.marks, headerRow: task.headerRow, title: task.title }, (piece) => {
          writeSync(fd, piece);
          size += piece.length;
        });
      } finally {
        closeSync(fd);
      }
      post({ type: 'file', size });
    }
  } catch (error) {
    if (error instanceof FileProblem) post({ type: 'problem', kind: error.kind, message: error.message, key: error.key });
    else {
      const code = (error as { code?: unknown } | null)?.code;
      post({ type: 'crash', message: error instanceof Error ? (error.stack ?? error.message) : String(error), ...(typeof code === 'string' ? { code } : {}) });
    }
  }
}
