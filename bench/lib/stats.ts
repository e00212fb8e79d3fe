/** The p-th percentile (0–100) of the values, nearest-rank; NaN for none. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((x, y) => x - y);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
}

/** Rounds for printing: figures are reported with at most `digits` decimals. */
/** The largest value (-Infinity for none); not Math.max(...values), which overflows the stack past ≈ 100,000 values. */
export const largest = (values: readonly number[]) => values.reduce((a, b) => (b > a ? b : a), -Infinity);

export const round = (value: number, digits = 2) => {
  if (!Number.isFinite(value)) return value;
  const f = 10 ** digits;
  return Math.round(value * f) / f;
};

export const mb = (bytes: number) => round(bytes / (1024 * 1024), 1);
