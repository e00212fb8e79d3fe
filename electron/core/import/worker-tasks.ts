import { writeErrorsFile } from './errors-file';
import { FileProblem, inspectWorkbook } from './file-check';
import { readSheet } from './sheet-reader';
import type { WorkerMessage, WorkerTask } from './worker-protocol';

/** Runs one task of the import worker, reporting through `post`. Never throws. */
export async function runWorkerTask(task: WorkerTask, post: (message: WorkerMessage, transfer?: ArrayBuffer[]) => void): Promise<void> {
  try {
    const bytes = Buffer.from(task.bytes.buffer, task.bytes.byteOffset, task.bytes.byteLength);
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
        },
        (rows) => post({ type: 'rows', rows }),
      );
      post({ type: 'done', summary });
    } else {
      const file = writeErrorsFile(bytes, { info, marks: task.marks, headerRow: task.headerRow, title: task.title });
      const out = new Uint8Array(file.buffer, file.byteOffset, file.byteLength);
      post({ type: 'file', bytes: out }, file.byteOffset === 0 && file.byteLength === file.buffer.byteLength ? [file.buffer as ArrayBuffer] : []);
    }
  } catch (error) {
    if (error instanceof FileProblem) post({ type: 'problem', kind: error.kind, message: error.message });
    else post({ type: 'crash', message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  }
}
