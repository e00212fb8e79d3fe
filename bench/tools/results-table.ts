// Prints the Markdown table of a results file (default bench/results/latest.json): each benchmark's
// goal figures with their goals, the baseline, and the machine. For the README's Performance section.
//   npx tsx bench/tools/results-table.ts [bench/results/latest.json]
import { readFileSync } from 'node:fs';
import type { ResultLine } from '../lib/report';

const file = process.argv[2] ?? 'bench/results/latest.json';
const { machine, results } = JSON.parse(readFileSync(file, 'utf8')) as {
  machine: { nproc: number; cpu: string; ramGb: number; node: string; platform: string };
  results: ResultLine[];
};

const fmt = (v: unknown) => (typeof v === 'number' ? (Math.abs(v) >= 100 ? Math.round(v).toLocaleString('en') : String(v)) : String(v));

console.log('| benchmark | figure | latest | goal | met | baseline (same run) |');
console.log('|---|---|---|---|---|---|');
for (const r of results) {
  if ('skipped' in r) {
    console.log(`| ${r.bench} | — | skipped: ${r.skipped} | | | |`);
    continue;
  }
  if ('error' in r) {
    console.log(`| ${r.bench} | — | error: ${r.error.split('\n')[0]} | | | |`);
    continue;
  }
  const base = Object.entries(r.baseline)
    .filter(([k]) => k !== 'what')
    .map(([k, v]) => `${k} ${fmt(v)}`)
    .join(', ');
  Object.keys(r.goal).forEach((figure, i) => {
    const value = figure === 'ratio' ? `${r.ratio} (${r.ratioOf})` : fmt(r.figures[figure]);
    console.log(`| ${i === 0 ? r.bench : ''} | ${figure} | ${value} | ${r.goal[figure]} | ${r.met[figure] ? 'yes' : '**no**'} | ${i === 0 ? base : ''} |`);
  });
}
console.log(`\nMachine: ${machine.nproc} cores (\`nproc\`), ${machine.cpu}, ${machine.ramGb} GB RAM, Node ${machine.node}, ${machine.platform}.`);
