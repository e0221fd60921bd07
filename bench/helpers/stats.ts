/** The nearest-rank percentile of values sorted ascending (NaN for none). */
function rankOf(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** The nearest-rank percentile of `values`, in any order. */
export function percentile(values: number[], p: number): number {
  return rankOf(
    [...values].sort((a, b) => a - b),
    p,
  );
}

export interface Distribution {
  count: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  mean: number;
}

/** The figures every benchmark reports for a set of times, to 0.1. */
export function distribution(values: number[]): Distribution {
  const sorted = [...values].sort((a, b) => a - b);
  const round = (value: number) => Math.round(value * 10) / 10;
  return {
    count: sorted.length,
    p50: round(rankOf(sorted, 50)),
    p95: round(rankOf(sorted, 95)),
    p99: round(rankOf(sorted, 99)),
    max: round(sorted[sorted.length - 1] ?? NaN),
    mean: round(sorted.reduce((sum, value) => sum + value, 0) / sorted.length),
  };
}
