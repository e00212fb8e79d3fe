import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { allBenchmarks, benchmarks } from '../../bench/benchmarks/index';

// The benchmarks in quick mode (small sizes, seconds each), so they keep working as the code changes.
// Only the shape of what they print is checked: figures are numbers, goals are judged; never timings.

const names = benchmarks.map((b) => b.name);
const out = mkdtempSync(join(tmpdir(), 'shipdesk-bench-quick-'));
let lines: Record<string, any>[] = [];
let stdout = '';
let stderr = '';

beforeAll(() => {
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'bench/run.ts', '--quick', '--out', join(out, 'latest.json')], {
    cwd: process.cwd(),
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    timeout: 900_000,
  });
  stdout = run.stdout;
  stderr = run.stderr;
  lines = stdout
    .split('\n')
    .filter((l) => l.trim().startsWith('{'))
    .map((l) => JSON.parse(l));
}, 960_000);

afterAll(() => rmSync(out, { recursive: true, force: true }));

const isNumber = (v: unknown) => typeof v === 'number' && Number.isFinite(v);

describe('npm run bench -- --quick', () => {
  it('prints one JSON line per benchmark and writes them to the results file', () => {
    expect(lines.map((l) => l.bench), stderr.slice(-4000)).toEqual(names);
    const file = JSON.parse(readFileSync(join(out, 'latest.json'), 'utf8'));
    expect(file.results.map((r: { bench: string }) => r.bench)).toEqual(names);
    expect(isNumber(file.machine.nproc) && typeof file.machine.cpu === 'string' && typeof file.machine.node === 'string').toBe(true);
  });

  it('bench/README.md describes every benchmark in its table (the PostgreSQL twins, run only when named, too)', () => {
    const rows = [...readFileSync('bench/README.md', 'utf8').matchAll(/^\| ([a-z-]+) \|/gm)].map((m) => m[1]);
    const described = rows.filter((name) => name !== 'name'); // the header row
    expect(described).toEqual(allBenchmarks.map((b) => b.name));
  });

  it.each(names)('%s either measures (numbers, baseline, ratio, judged goals) or says why it was skipped', (name) => {
    const line = lines.find((l) => l.bench === name);
    expect(line, `no line for ${name}\n${stderr.slice(-4000)}`).toBeDefined();
    expect(line!.error, String(line!.error)).toBeUndefined();
    expect(line!.quick).toBe(true);
    if ('skipped' in line!) {
      expect(typeof line!.skipped).toBe('string');
      expect(line!.skipped.length).toBeGreaterThan(0);
      return;
    }
    const figures = Object.entries(line!.figures as Record<string, unknown>);
    expect(figures.length).toBeGreaterThan(0);
    for (const [key, value] of figures) expect(isNumber(value), `figures.${key} = ${value}`).toBe(true);
    expect(typeof line!.baseline.what).toBe('string');
    const baseline = Object.entries(line!.baseline as Record<string, unknown>).filter(([k]) => k !== 'what');
    expect(baseline.length).toBeGreaterThan(0);
    for (const [key, value] of baseline) expect(isNumber(value), `baseline.${key} = ${value}`).toBe(true);
    expect(isNumber(line!.ratio)).toBe(true);
    expect(Object.keys(line!.goal).length).toBeGreaterThan(0);
    expect(Object.keys(line!.met).sort()).toEqual(Object.keys(line!.goal).sort());
    for (const met of Object.values(line!.met)) expect(typeof met).toBe('boolean');
    expect(typeof line!.allMet).toBe('boolean');
  });
});
