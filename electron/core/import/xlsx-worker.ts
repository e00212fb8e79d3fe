// Entry of the import worker thread (node:worker_threads): reads a workbook or writes its errors file
// off the main thread. It starts idle and takes one task by message; how the main
// thread finds this file: see worker-client.ts.
import { parentPort } from 'node:worker_threads';
import type { MainMessage, WorkerTask } from './worker-protocol';
import { startWorkerTask } from './worker-tasks';

parentPort!.once('message', (task: WorkerTask) => {
  const running = startWorkerTask(task, (message, transfer) => parentPort!.postMessage(message, transfer ?? []));
  parentPort!.on('message', (message: MainMessage) => running.receive(message));
});
