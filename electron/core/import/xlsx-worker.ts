// Entry of the import worker thread (node:worker_threads): reads a workbook or writes its errors file
// off the main thread. It starts idle and takes one task by message; how the main
// thread finds this file: see worker-client.ts.
import { parentPort } from 'node:worker_threads';
import type { MainMessage, WorkerTask } from './worker-protocol';
import { createFlowControl, runWorkerTask } from './worker-tasks';

parentPort!.once('message', (task: WorkerTask) => {
  const flow = createFlowControl(task.kind === 'read' ? task.windowBytes : undefined);
  parentPort!.on('message', (message: MainMessage) => {
    if (message.type === 'ack') flow.ack();
  });
  void runWorkerTask(task, (message, transfer) => parentPort!.postMessage(message, transfer ?? []), flow);
});
