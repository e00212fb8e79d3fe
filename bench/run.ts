// `npm run bench` runs every benchmark; `npm run bench -- create points` runs some (`--postgres`: each with its
// PostgreSQL twin, `create-pg`…, which otherwise run only when named); `--quick` uses
// small sizes (seconds; what CI runs so the benchmarks keep working); `--list` names them.
// stdout: one JSON line per benchmark. Progress goes to stderr. The lines are also written to
// bench/results/latest.json (quick: latest-quick.json; `--out <file>` elsewhere), merged by name.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { allBenchmarks, benchmarks, postgresBenchmarks } from './benchmarks/index';
import { repoRoot } from './lib/child';
import { resultLine, Skip, type BenchContext, type ResultLine } from './lib/report';
import { stopBenchPostgres } from './lib/postgres';
import { createSeededDirs } from './lib/seeded-dirs';
import { round } from './lib/stats';

/** The machine the figures were taken on. */
export function machine() {
  let cpu = cpus()[0]?.model ?? 'unknown';
  try {
    cpu = /model name\s*:\s*(.+)/.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? cpu;
  } catch {
    // not Linux: os.cpus() has it
  }
  return {
    nproc: availableParallelism(),
    cpu,
    ramGb: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
  };
}

async function main() {
  const { values, positionals } = parseArgs({
    args: process.argv.slice(2),
    options: {
      quick: { type: 'boolean', default: false },
      list: { type: 'boolean', default: false },
      out: { type: 'string' },
      postgres: { type: 'boolean', default: false },
    },
    allowPositionals: true,
  });
  if (values.list) {
    for (const b of allBenchmarks) console.log(`${b.name.padEnd(11)} ${b.title}${postgresBenchmarks.includes(b) ? ' (only when named, or with --postgres)' : ''}`);
    return;
  }
  const unknown = positionals.filter((name) => !allBenchmarks.some((b) => b.name === name));
  if (unknown.length) {
    console.error(`unknown benchmark: ${unknown.join(', ')} (known: ${allBenchmarks.map((b) => b.name).join(', ')})`);
    process.exit(2);
  }
  const named = positionals.length ? allBenchmarks.filter((b) => positionals.includes(b.name)) : benchmarks;
  // --postgres: each selected benchmark's PostgreSQL twin runs right after it, in the same run.
  const selected = values.postgres ? allBenchmarks.filter((b) => named.includes(b) || named.some((n) => b.name === `${n.name}-pg`)) : named;
  const quick = values.quick ?? false;
  const log = (message: string) => process.stderr.write(`[bench] ${message}\n`);
  const seeded = createSeededDirs(log);
  const ctx: BenchContext = { quick, log, seededOrdersDir: (count, token) => seeded.copy(count, token) };

  const lines: ResultLine[] = [];
  try {
    for (const bench of selected) {
      log(`${bench.name}: ${bench.title}${quick ? ' (quick)' : ''}`);
      let line: ResultLine;
      const at = new Date().toISOString();
      const loadBefore = loadavg()[0];
      try {
        line = resultLine(bench.name, quick, await bench.run(ctx));
      } catch (error) {
        line = error instanceof Skip
          ? { bench: bench.name, quick, at, skipped: error.message }
          : { bench: bench.name, quick, at, error: error instanceof Error ? (error.stack ?? error.message) : String(error) };
      }
      // Other work on the machine skews every figure: say how busy it was (1-minute load average).
      line = { ...line, loadAvg: { before: round(loadBefore), after: round(loadavg()[0]), cores: availableParallelism() } };
      lines.push(line);
      console.log(JSON.stringify(line));
    }
  } finally {
    seeded.dispose();
    await stopBenchPostgres();
  }

  const out = resolve(values.out ?? join(repoRoot, 'bench/results', quick ? 'latest-quick.json' : 'latest.json'));
  mkdirSync(dirname(out), { recursive: true });
  let previous: ResultLine[] = [];
  try {
    if (existsSync(out)) previous = (JSON.parse(readFileSync(out, 'utf8')) as { results: ResultLine[] }).results ?? [];
  } catch {
    previous = [];
  }
  const merged = [...previous.filter((p) => !lines.some((l) => l.bench === p.bench)), ...lines];
  merged.sort((a, b) => allBenchmarks.findIndex((x) => x.name === a.bench) - allBenchmarks.findIndex((x) => x.name === b.bench));
  writeFileSync(out, `${JSON.stringify({ machine: machine(), results: merged }, null, 2)}\n`);
  log(`results written to ${out}`);
  if (lines.some((l) => 'error' in l)) process.exitCode = 1;
}

void main();
