import { defaultLimits, FileProblem } from './file-check';
import { runWorker, workerExecArgv } from './worker-client';

describe('a file the import worker refuses', () => {
  it('comes back with its English text and the key the window says it by', async () => {
    const bytes = new TextEncoder().encode('номер;город\n1;Москва\n');
    const refused = await runWorker({ kind: 'read', bytes, limits: defaultLimits, read: { fromRow: 1, dataFrom: 2 } }, () => {}, { timeoutMs: 60_000, maxHeapMb: 256 }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(FileProblem);
    expect(refused).toMatchObject({ kind: 'not-xlsx', key: 'import.problem.text', message: expect.stringMatching(/^The file is text \(CSV, HTML or similar\)/) });
  });
});

describe('a profiled process', () => {
  it('profiles its import workers too, without handing them its loader', () => {
    const args = ['--cpu-prof', '--cpu-prof-dir', '/tmp/prof', '--cpu-prof-interval', '200', '--import', 'tsx', '--cpu-prof-dir=/tmp/p2'];
    expect(workerExecArgv(args)).toEqual(['--cpu-prof', '--cpu-prof-dir', '/tmp/prof', '--cpu-prof-interval', '200', '--cpu-prof-dir=/tmp/p2']);
    expect(workerExecArgv(['--import', 'tsx', '--max-old-space-size=512'])).toEqual([]);
  });
});
