/**
 * Writes the errors file of a workbook in a process of its own and prints its peak memory (VmHWM, from
 * after the workbook was read): `node --import tsx test/helpers/errors-file-peak.mts <xlsx> <marked rows…>`,
 * the marked rows as `first:step:count`. Prints one JSON line: { peakMb, bytes, sheetMarks }.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { writeErrorsFile } from '../../electron/core/import/errors-file';
import { inspectWorkbook } from '../../electron/core/import/file-check';

const [file, spec] = process.argv.slice(2);
const [first, step, count] = spec.split(':').map(Number);
const bytes = readFileSync(file);
const marks = Array.from({ length: count }, (_, i) => ({ row: first + i * step, messages: [`order.weight: Enter a number (row ${first + i * step})`] }));
writeFileSync('/proc/self/clear_refs', '5'); // the peak from here on: the errors file's own
let written = 0;
await writeErrorsFile(bytes, { info: inspectWorkbook(bytes), marks, headerRow: 1, title: 'Import errors' }, (piece) => {
  written += piece.length;
});
const peakKb = Number(/VmHWM:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))![1]);
console.log(JSON.stringify({ peakMb: Math.round(peakKb / 1024), bytes: written }));
