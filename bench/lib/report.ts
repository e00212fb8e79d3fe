import { round } from './stats';

export type GoalOp = '<' | '<=' | '>' | '>=';

/** A goal on one figure (or on `ratio`): `p99Ms < 50`. */
export interface Goal {
  figure: string;
  op: GoalOp;
  limit: number;
}

/** What a benchmark measured; the runner turns it into one JSON line. */
export interface Measurement {
  /** Sizes and settings of this run (rows, connections, seconds…). */
  params: Record<string, number | string | boolean>;
  /** Our figures. */
  figures: Record<string, number>;
  /** The same measurement of the baseline, taken in the same run. */
  baseline: { what: string } & Record<string, number | string>;
  /** Ours against the baseline; `ratioOf` says which way round. */
  ratio: number;
  ratioOf: string;
  goals: Goal[];
  /** Extra facts a reader needs to interpret the figures (optional). */
  notes?: string[];
}

export interface BenchContext {
  quick: boolean;
  /** Progress for humans; goes to stderr so stdout holds only the JSON lines. */
  log(message: string): void;
  /**
   * A data folder holding `count` orders of the company with this API token (a year of a shop's
   * orders with their status histories). Seeded once per run and copied for each use.
   */
  seededOrdersDir(count: number, token: string): Promise<{ dir: string; remove(): void }>;
}

export interface Benchmark {
  name: string;
  /** One line for `npm run bench -- --list`. */
  title: string;
  run(ctx: BenchContext): Promise<Measurement>;
}

/** Thrown when a piece the benchmark needs does not exist yet: the run prints `skipped` instead of failing. */
export class Skip extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'Skip';
  }
}

/** How busy the machine was around a benchmark (1-minute load average). */
export interface LoadAvg {
  before: number;
  after: number;
  cores: number;
}

export type ResultLine = (
  | {
      bench: string;
      quick: boolean;
      at: string;
      params: Measurement['params'];
      figures: Record<string, number>;
      baseline: Measurement['baseline'];
      ratio: number;
      ratioOf: string;
      goal: Record<string, string>;
      met: Record<string, boolean>;
      allMet: boolean;
      notes?: string[];
    }
  | { bench: string; quick: boolean; at: string; skipped: string }
  | { bench: string; quick: boolean; at: string; error: string }
) & { loadAvg?: LoadAvg };

const check = (value: number, { op, limit }: Goal) =>
  op === '<' ? value < limit : op === '<=' ? value <= limit : op === '>' ? value > limit : value >= limit;

/** The JSON line of a finished measurement: figures, baseline, ratio, goals and whether each is met. */
export function resultLine(bench: string, quick: boolean, m: Measurement): ResultLine {
  const goal: Record<string, string> = {};
  const met: Record<string, boolean> = {};
  for (const g of m.goals) {
    const value = g.figure === 'ratio' ? m.ratio : m.figures[g.figure];
    if (value === undefined) throw new Error(`goal on unknown figure ${g.figure}`);
    goal[g.figure] = `${g.op} ${g.limit}`;
    met[g.figure] = check(value, g);
  }
  const figures = Object.fromEntries(Object.entries(m.figures).map(([k, v]) => [k, round(v)]));
  const baseline = Object.fromEntries(Object.entries(m.baseline).map(([k, v]) => [k, typeof v === 'number' ? round(v) : v])) as Measurement['baseline'];
  return {
    bench,
    quick,
    at: new Date().toISOString(),
    params: m.params,
    figures,
    baseline,
    ratio: round(m.ratio, 3),
    ratioOf: m.ratioOf,
    goal,
    met,
    allMet: Object.values(met).every(Boolean),
    ...(m.notes?.length ? { notes: m.notes } : {}),
  };
}
