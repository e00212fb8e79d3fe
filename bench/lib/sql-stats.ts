/**
 * Diagnostics only (BENCH_PHASE_PROF, BENCH_SQL_STATS): counts and times every SQL statement the core prepares and runs
 * through this connection (Kysely's driver prepares each query anew), to say which queries a request costs.
 */
type AnyStatement = Record<'run' | 'all' | 'get' | 'iterate', (...args: unknown[]) => unknown>;
export function countStatements(sqlite: { prepare(sql: string): unknown }) {
  type Stat = { sql: string; prepares: number; prepareMs: number; runs: number; runMs: number };
  let stats = new Map<string, Stat>();
  const prepare = sqlite.prepare.bind(sqlite);
  sqlite.prepare = (text: string): unknown => {
    const started = performance.now();
    const statement = prepare(text) as AnyStatement;
    const stat = stats.get(text) ?? { sql: text, prepares: 0, prepareMs: 0, runs: 0, runMs: 0 };
    stats.set(text, stat);
    stat.prepares++;
    stat.prepareMs += performance.now() - started;
    for (const method of ['run', 'all', 'get', 'iterate'] as const) {
      const original = statement[method];
      statement[method] = (...args: unknown[]) => {
        const t = performance.now();
        try {
          return original.apply(statement, args);
        } finally {
          // A statement prepared before a reset (the store's hot paths are prepared once) counts in the new phase too.
          let s = stats.get(text);
          if (!s) stats.set(text, (s = { sql: text, prepares: 0, prepareMs: 0, runs: 0, runMs: 0 }));
          s.runs++;
          s.runMs += performance.now() - t;
        }
      };
    }
    return statement;
  };
  return {
    reset: () => (stats = new Map()),
    report: () => [...stats.values()].sort((a, b) => b.runMs + b.prepareMs - (a.runMs + a.prepareMs)),
  };
}

/** One line per statement, costliest first: runs, ms running, ms preparing, the SQL. */
export function formatStats(stats: ReturnType<ReturnType<typeof countStatements>['report']>, top = 25): string {
  const total = stats.reduce((s, x) => s + x.runMs + x.prepareMs, 0);
  const runs = stats.reduce((s, x) => s + x.runs, 0);
  return [
    `${runs} statements, ${total.toFixed(0)} ms`,
    ...stats.slice(0, top).map((x) => `${String(x.runs).padStart(7)} × ${x.runMs.toFixed(0).padStart(6)} ms run ${x.prepareMs.toFixed(0).padStart(5)} ms prep  ${x.sql.replace(/\s+/g, ' ').slice(0, 160)}`),
  ].join('\n');
}
