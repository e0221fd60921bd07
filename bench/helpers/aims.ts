/**
 * The regression guard of the benchmarks: how a measured figure stands against its aim, given
 * the spread its own rounds showed in the same run. A figure below its aim by more than that
 * spread is a regression the run reports as one; a figure below it by less may be the machine's
 * noise and says so. Nothing here fails a run: performance is judged in benchmark output, never
 * by timed assertions in `npm test`.
 */
export interface AimJudgement {
  /** The mean over the rounds. */
  value: number;
  /** Highest round minus lowest; 0 with one round (no spread measured). */
  spread: number;
  rounds: number;
  met: boolean;
  /** Missed by more than the spread (never with one round: there is no spread to compare). */
  regression: boolean;
  /** One line for the benchmark's output. */
  verdict: string;
}

export function judgeAgainstAim({
  perRound,
  aim,
  better,
  format = (value) => value.toFixed(3),
}: {
  perRound: number[];
  aim: number;
  /** Whether a higher figure (a ratio) or a lower one (a latency) is the better. */
  better: 'higher' | 'lower';
  format?: (value: number) => string;
}): AimJudgement {
  if (perRound.length === 0) throw new Error('judgeAgainstAim: no rounds');
  const value = perRound.reduce((sum, figure) => sum + figure, 0) / perRound.length;
  const spread = Math.max(...perRound) - Math.min(...perRound);
  const met = better === 'higher' ? value >= aim : value <= aim;
  const shortfall = better === 'higher' ? aim - value : value - aim;
  const rounds = perRound.length;
  const regression = !met && rounds > 1 && shortfall > spread;
  const missed = `${format(value)} misses ${format(aim)} by ${format(shortfall)}`;
  const spreadText = `run-to-run spread ${format(spread)} over ${rounds} rounds`;
  const verdict = met
    ? `met: ${format(value)} (${rounds > 1 ? spreadText : 'one round'})`
    : rounds === 1
      ? `NOT met: ${missed} (one round: no spread to tell noise from a regression)`
      : regression
        ? `NOT met, a regression: ${missed}, more than the ${spreadText}`
        : `NOT met, within noise: ${missed}, no more than the ${spreadText}`;
  return { value, spread, rounds, met, regression, verdict };
}
