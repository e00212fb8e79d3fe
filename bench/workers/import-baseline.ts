// The baseline of the import benchmark: exceljs' streaming reader over the same bytes, every cell's
// value read, with the options the import's sheet reader uses. Nothing else: no checks, no writes.
import ExcelJS from 'exceljs';
import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { parseArgs } from 'node:util';
import { sendToParent } from '../lib/child';
import { startStallProbe } from '../lib/stall-probe';

const { values } = parseArgs({ options: { file: { type: 'string' } } });

async function main() {
  const bytes = readFileSync(values.file!);
  const rssBefore = process.memoryUsage().rss;
  const started = performance.now();
  const probe = startStallProbe();
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([bytes]), {
    worksheets: 'emit',
    sharedStrings: 'cache',
    styles: 'cache',
    hyperlinks: 'ignore',
    entries: 'ignore',
  });
  let rows = 0;
  let cells = 0;
  for await (const worksheet of reader) {
    for await (const row of worksheet as unknown as AsyncIterable<ExcelJS.Row>) {
      rows++;
      row.eachCell({ includeEmpty: false }, (cell) => {
        if (cell.value !== null) cells++;
      });
    }
  }
  const ms = performance.now() - started;
  const stalls = probe.stop();
  await sendToParent({ type: 'result', ms, ...stalls, peakRssBytes: process.resourceUsage().maxRSS * 1024, rssBeforeBytes: rssBefore, rows, cells });
}

main().then(
  () => process.exit(0),
  async (error) => {
    console.error(error);
    await sendToParent({ type: 'error', message: String(error) }).catch(() => {});
    process.exit(1);
  },
);
