import { execFile } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { ordersWorkbook, sampleOrder } from '../../../test/fixtures/xlsx/orders-workbook';
import { importWorkerBuild } from './worker-client';

// The packaged app runs the core from one bundle (dist-electron/main.mjs): the worker must be found
// there too. This builds a bundle of the reading code and the worker exactly as the build does (the
// worker with importWorkerBuild, beside the bundle) and reads a workbook with it in plain Node.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
// inside the repo, so the bundles resolve exceljs from node_modules as the packaged app does
const out = path.join(root, 'node_modules/.cache/shipdesk-import-worker-bundle');

describe('the import worker in a bundle', () => {
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('is found beside the bundle and reads a workbook', async () => {
    rmSync(out, { recursive: true, force: true });
    mkdirSync(out, { recursive: true });
    const common = { bundle: true, platform: 'node' as const, target: 'node20', format: 'esm' as const, external: ['exceljs'], logLevel: 'silent' as const, absWorkingDir: root };
    await build({ ...importWorkerBuild, absWorkingDir: root, logLevel: 'silent', outfile: path.join(out, 'import-worker.mjs') });
    await build({
      ...common,
      banner: importWorkerBuild.banner,
      stdin: {
        contents: `
          import { readFileSync } from 'node:fs';
          import { runWorker } from './electron/core/import/worker-client';
          import { defaultLimits } from './electron/core/import/file-check';
          const rows = [];
          await runWorker({ kind: 'read', bytes: readFileSync(process.argv[2]), limits: defaultLimits, read: { fromRow: 1, dataFrom: 3 } },
            (m) => { if (m.type === 'rows') rows.push(...m.rows); }, { timeoutMs: 60000, maxHeapMb: 128 });
          console.log(JSON.stringify(rows.map((r) => r.cells[0])));`,
        resolveDir: root,
        loader: 'ts',
      },
      outfile: path.join(out, 'main.mjs'),
    });
    const { buffer } = await ordersWorkbook([sampleOrder('BUNDLED-1'), sampleOrder('BUNDLED-2')], { itemsNewRow: false });
    writeFileSync(path.join(out, 'orders.xlsx'), buffer);
    const { stdout } = await promisify(execFile)(process.execPath, [path.join(out, 'main.mjs'), path.join(out, 'orders.xlsx')], { cwd: out });
    expect(JSON.parse(stdout)).toEqual(['Выгрузка заказов интернет-магазина', 'Номер заказа', 'BUNDLED-1', null, null, 'BUNDLED-2', null, null]);
  }, 60_000);
});
