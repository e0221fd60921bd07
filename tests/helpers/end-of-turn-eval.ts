import type { TResolvedTurnTaking } from '../../shared/schemas/turn-taking.js';
import {
  createBargeInDetector,
  createEndOfTurnDetector,
  DEFAULT_END_OF_TURN_RULE,
  type EndOfTurnRule,
  type StretchEnding,
} from '../../shared/voice/end-of-turn.js';
import { type FrameAnalysis, VOICE_FRAME_MS } from '../../shared/voice/types.js';
import { generateEndOfTurnSet, type LabelledAnswer } from '../fixtures/end-of-turn/generate.js';
import { analyseWav } from './voice-analysis.js';

/**
 * The end-of-turn measurement: every answer of the labelled set (tests/fixtures/end-of-turn,
 * written blind by another hand) through the page's own code: WAV → 512-sample frames → Silero VAD
 * → loudness and pitch → the end-of-turn rule, each frame given at the time its audio ends, as the
 * microphone would deliver it.
 */

export interface AnsweredTurn {
  answer: LabelledAnswer;
  /** When the rule ended the turn (ms into the file), null if it never did. */
  endOfTurnMs: number | null;
  /** Ended before the participant had finished (before the label's speechEndMs). */
  premature: boolean;
  /** endOfTurnMs − speechEndMs (null when the turn never ended or ended early). */
  latencyMs: number | null;
  /** How each stretch of speech ended, as the rule judged it (at each pause and at the end). */
  endings: (StretchEnding & { atMs: number })[];
  /** Speech onset → barge-in decision, had the AI been speaking (null: never decided). */
  bargeInAfterOnsetMs: number | null;
}

export interface AnalysedAnswer {
  answer: LabelledAnswer;
  frames: FrameAnalysis[];
}

/** The labelled set rendered and analysed (both cached: a warm run takes seconds). */
export async function analyseEndOfTurnSet(): Promise<AnalysedAnswer[]> {
  const answers = await generateEndOfTurnSet();
  const analysed: AnalysedAnswer[] = [];
  for (const answer of answers) analysed.push({ answer, frames: await analyseWav(answer.file) });
  return analysed;
}

export function runAnswer({ answer, frames }: AnalysedAnswer, settings: TResolvedTurnTaking, rule: EndOfTurnRule = DEFAULT_END_OF_TURN_RULE): AnsweredTurn {
  const detector = createEndOfTurnDetector(settings, rule);
  const bargeIn = createBargeInDetector();
  let endOfTurnMs: number | null = null;
  let bargeInMs: number | null = null;
  const endings: AnsweredTurn['endings'] = [];
  frames.forEach((frame, index) => {
    const atMs = (index + 1) * VOICE_FRAME_MS;
    for (const event of detector.push(frame, atMs)) {
      if (event.type === 'speech_end') endings.push({ ...detector.lastEnding()!, atMs: event.atMs });
      if (event.type === 'end_of_turn' && endOfTurnMs === null) endOfTurnMs = event.atMs;
    }
    bargeInMs ??= bargeIn.push(frame, atMs)?.atMs ?? null;
  });
  const premature = endOfTurnMs !== null && endOfTurnMs < answer.speechEndMs;
  const firstOnset = answer.speechSegments[0]!.startMs;
  return {
    answer,
    endOfTurnMs,
    premature,
    latencyMs: endOfTurnMs !== null && !premature ? endOfTurnMs - answer.speechEndMs : null,
    endings,
    bargeInAfterOnsetMs: bargeInMs === null ? null : bargeInMs - firstOnset,
  };
}

export function percentile(values: number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export interface TurnFigures {
  answers: number;
  premature: number;
  prematurePercent: number;
  /** Answers whose turn never ended (counted as failures beside the premature ones). */
  undecided: number;
  latencyP50Ms: number | null;
  latencyP95Ms: number | null;
  bargeInP95Ms: number | null;
}

export function figuresOf(turns: AnsweredTurn[]): TurnFigures {
  const latencies = turns.map((turn) => turn.latencyMs).filter((value): value is number => value !== null);
  const premature = turns.filter((turn) => turn.premature).length;
  const bargeIns = turns.map((turn) => turn.bargeInAfterOnsetMs).filter((value): value is number => value !== null);
  return {
    answers: turns.length,
    premature,
    prematurePercent: turns.length ? (100 * premature) / turns.length : 0,
    undecided: turns.filter((turn) => turn.endOfTurnMs === null).length,
    latencyP50Ms: percentile(latencies, 50),
    latencyP95Ms: percentile(latencies, 95),
    bargeInP95Ms: percentile(bargeIns, 95),
  };
}

/** The figures table: per split, per language and all. */
export function figuresTable(turns: AnsweredTurn[]): string {
  const rows: string[] = [
    '| split | language | answers | premature | undecided | latency p50 | latency p95 | barge-in p95 |',
    '|---|---|---:|---:|---:|---:|---:|---:|',
  ];
  const ms = (value: number | null) => (value === null ? '–' : `${Math.round(value)} ms`);
  for (const split of ['dev', 'heldout'] as const) {
    const ofSplit = turns.filter((turn) => turn.answer.split === split);
    const languages = [...new Set(ofSplit.map((turn) => turn.answer.language))];
    for (const language of [...languages, 'all']) {
      const group = language === 'all' ? ofSplit : ofSplit.filter((turn) => turn.answer.language === language);
      const f = figuresOf(group);
      rows.push(
        `| ${split} | ${language} | ${f.answers} | ${f.premature} (${f.prematurePercent.toFixed(1)}%) | ${f.undecided} | ${ms(f.latencyP50Ms)} | ${ms(f.latencyP95Ms)} | ${ms(f.bargeInP95Ms)} |`,
      );
    }
  }
  return rows.join('\n');
}
