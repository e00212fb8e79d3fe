// Entry of the import worker thread (node:worker_threads): reads a workbook or writes its errors file
// off the main thread. How the main thread finds this file: see worker-client.ts.
import { parentPort, workerData } from 'node:worker_threads';
import type { WorkerTask } from './worker-protocol';
import { runWorkerTask } from './worker-tasks';

void runWorkerTask(workerData as WorkerTask, (message, transfer) => parentPort!.postMessage(message, transfer ?? []));
