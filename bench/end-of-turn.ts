/**
 * End-of-turn figures on the labelled audio set (tests/fixtures/end-of-turn, written blind by
 * another hand): every answer through the page's own analysis (Silero VAD on onnxruntime-web's
 * WebAssembly, pitch) and end-of-turn rule, frames given at the times their audio ends.
 *
 *   npm run eval:end-of-turn
 *
 * Prints, per split and language, at the defaults: answers, premature ends (the turn ended before
 * the participant had finished), undecided turns, end of speech → decision p50/p95, barge-in
 * decision after speech onset p95. Then the trade-off between cut-offs and waiting, for the rule
 * (its cues choose endOfTurnMs or pauseMs) and for a plain fixed silence wait. The rule was tuned
 * on 'dev' only; 'heldout' is the measurement. A cold run takes minutes (espeak-ng, Silero over 27
 * minutes of audio); the renders and analyses are cached, a warm run takes seconds.
 */
import { DEFAULT_TURN_TAKING } from '../shared/schemas/turn-taking.js';
import { analyseEndOfTurnSet, figuresOf, figuresTable, runAnswer } from '../tests/helpers/end-of-turn-eval.js';

const started = Date.now();
const set = await analyseEndOfTurnSet();
const analysedMs = Date.now() - started;

console.log(`## At the defaults: endOfTurnMs ${DEFAULT_TURN_TAKING.endOfTurnMs}, pauseMs ${DEFAULT_TURN_TAKING.pauseMs}\n`);
console.log(figuresTable(set.map((answer) => runAnswer(answer, DEFAULT_TURN_TAKING))));

const ms = (value: number | null) => (value === null ? '–' : String(Math.round(value)));
const splits = ['dev', 'heldout'] as const;
const row = (label: string, settings: typeof DEFAULT_TURN_TAKING) => {
  const cells = splits.map((split) => {
    const f = figuresOf(set.filter(({ answer }) => answer.split === split).map((answer) => runAnswer(answer, settings)));
    return `${f.prematurePercent.toFixed(1)}% | ${ms(f.latencyP50Ms)} | ${ms(f.latencyP95Ms)}`;
  });
  return `| ${label} | ${cells.join(' | ')} |`;
};

console.log('\n## Cut-offs against waiting (all languages)\n');
console.log('| settings | dev premature | dev p50 ms | dev p95 ms | held-out premature | held-out p50 ms | held-out p95 ms |');
console.log('|---|---:|---:|---:|---:|---:|---:|');
for (const endOfTurnMs of [600, 700, 800, 900, 1000, 1100, 1200, 1300, 1500]) {
  console.log(row(`rule: endOfTurnMs ${endOfTurnMs}, pauseMs ${DEFAULT_TURN_TAKING.pauseMs}`, { ...DEFAULT_TURN_TAKING, endOfTurnMs }));
}
for (const waitMs of [700, 1000, 1200, 1400, 1600, 1800]) {
  console.log(row(`fixed silence wait ${waitMs}`, { ...DEFAULT_TURN_TAKING, endOfTurnMs: waitMs, pauseMs: waitMs }));
}
console.log(`\n${set.length} answers analysed in ${(analysedMs / 1000).toFixed(1)} s (cached after the first run).`);
