import { defaultLimits, FileProblem } from './file-check';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ordersWorkbook, sampleOrder } from '../../../test/fixtures/xlsx/orders-workbook';
import { prepareWorkerEntry, runWorker, workerExecArgv } from './worker-client';

describe('a file the import worker refuses', () => {
  it('comes back with its English text and the key the window says it by', async () => {
    const bytes = new TextEncoder().encode('номер;город\n1;Москва\n');
    const refused = await runWorker({ kind: 'read', bytes, limits: defaultLimits, read: { fromRow: 1, dataFrom: 2 } }, () => {}, { timeoutMs: 60_000, maxHeapMb: 256 }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(FileProblem);
    expect(refused).toMatchObject({ kind: 'not-xlsx', key: 'import.problem.text', message: expect.stringMatching(/^The file is text \(CSV, HTML or similar\)/) });
  }, 60_000); // the first worker from source waits for esbuild to bundle it: 5 s were not enough at load 10
});

describe('a profiled process', () => {
  it('profiles its import workers too, without handing them its loader', () => {
    const args = ['--cpu-prof', '--cpu-prof-dir', '/tmp/prof', '--cpu-prof-interval', '200', '--import', 'tsx', '--cpu-prof-dir=/tmp/p2'];
    expect(workerExecArgv(args)).toEqual(['--cpu-prof', '--cpu-prof-dir', '/tmp/prof', '--cpu-prof-interval', '200', '--cpu-prof-dir=/tmp/p2']);
    expect(workerExecArgv(['--import', 'tsx', '--max-old-space-size=512'])).toEqual([]);
  });
});

describe('from source', () => {
  it('the worker is bundled ahead on request, and a worker started from that bundle reads a workbook', async () => {
    const entry = await prepareWorkerEntry();
    expect(entry?.protocol).toBe('file:');
    expect(existsSync(fileURLToPath(entry!))).toBe(true);
    const { buffer } = await ordersWorkbook([sampleOrder('AHEAD-1')], { itemsNewRow: false });
    const first: unknown[] = [];
    await runWorker({ kind: 'read', bytes: new Uint8Array(buffer), limits: defaultLimits, read: { fromRow: 3, dataFrom: 3 } }, (m) => {
      if (m.type === 'rows') first.push(...m.rows.map((r) => r.cells[0]));
    }, { timeoutMs: 60_000, maxHeapMb: 128, entry: entry! });
    expect(first).toEqual(['AHEAD-1', null, null]);
  }, 60_000);
});
