import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { hostileUploadBody, orderSheet, streamedZip, workbookParts } from '../../test/fixtures/xlsx/hostile-workbooks';
import { benchTempDir } from '../lib/child';
import { Skip, type Benchmark } from '../lib/report';
import { mb } from '../lib/stats';
import { runWorker } from './import';

/**
 * The hostile wide sheet of issue 12: 100,000 valid orders, each row with one stray cell in column XFD
 * (Excel's last), imported in sync mode in a fresh process. Before, the reader padded every row to 16,384
 * cells and the process died at 3.4 GB. Baseline: the same orders without the stray cells, same process kind.
 */
export const importWideBench: Benchmark = {
  name: 'import-wide',
  title: 'xlsx import of 100,000 orders with a stray cell in column XFD on every row, sync mode',
  async run(ctx) {
    const rows = ctx.quick ? 2_000 : 100_000;
    const tmp = benchTempDir('import-wide');
    try {
      const wide = join(tmp.dir, 'wide.xlsx');
      const plain = join(tmp.dir, 'plain.xlsx');
      writeFileSync(wide, await streamedZip(workbookParts(orderSheet({ rows, strayColumn: 'XFD' }))));
      writeFileSync(plain, await streamedZip(workbookParts(orderSheet({ rows }))));
      const settings = join(tmp.dir, 'settings.json');
      const { file: _file, mode: _mode, ...rest } = hostileUploadBody(Buffer.alloc(0));
      writeFileSync(settings, JSON.stringify(rest));
      ctx.log(`import-wide: ${rows} rows written; the plain sheet first`);
      const base = await runWorker('bench/workers/import-ours.ts', ['--file', plain, '--data-dir', join(tmp.dir, 'plain-data'), '--settings', settings, '--answer-only']);
      ctx.log('import-wide: the sheet with a cell in XFD');
      const ours = await runWorker('bench/workers/import-ours.ts', ['--file', wide, '--data-dir', join(tmp.dir, 'wide-data'), '--settings', settings, '--answer-only']);
      if (Number(ours.created) === 0 && Number(base.created) === 0) throw new Skip('no order was created from either sheet');
      return {
        params: { rows, strayColumn: 'XFD', mode: 'sync' },
        figures: { ms: ours.ms, peakRssMb: mb(ours.peakRssBytes), maxStallMs: ours.maxStallMs, created: Number(ours.created), mainHeapPeakMb: mb(Number(ours.peakHeapUsedBytes)) },
        baseline: { what: 'the same orders without the stray cells', ms: base.ms, peakRssMb: mb(base.peakRssBytes), created: Number(base.created) },
        ratio: ours.ms / base.ms,
        ratioOf: 'wide sheet ms ÷ plain sheet ms',
        goals: [
          { figure: 'peakRssMb', op: '<', limit: 400 },
          { figure: 'created', op: '>=', limit: rows },
        ],
        notes: [],
      };
    } finally {
      tmp.remove();
    }
  },
};
