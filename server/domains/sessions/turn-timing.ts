import type { EntityManager } from '@mikro-orm/postgresql';
import type { TTurnTakingSummary, TVoiceTiming } from '../../../shared/schemas/turn-taking.js';
import { answeredTurnAndPrevious, recordAiTurnTiming, recordCutOff, turnTakingAggregates } from './queries.js';
import type { SessionUtterance } from '../../entities/index.js';
import { validationError } from '../../errors.js';
import type { OrganizationScope } from '../common/caller.js';

/**
 * Turn-taking you can see (issue "Voice-first interviews"): what the interview page reports with
 * each answer (`voiceTiming`, on the participant's clock) and what the server measures itself,
 * stored on the utterances they describe, and the session's summary of them.
 *
 * Per AI turn, latency = when its audio started playing − when the participant's speech ended in
 * the answer before it. Both times come from the same page, so a skewed clock cancels out.
 */

/**
 * Longer than this between the end of an answer and the AI's audio is a pause (a participant who
 * paused the interview, a page left in the background), not a wait for the AI: not a latency.
 * An idle session is abandoned after 10 minutes by default.
 */
export const MAX_TURN_LATENCY_MS = 600_000;

/** The server's own time on an AI turn: recognising the answer before it, and the interviewer choosing it. */
export interface ServerTurnTiming {
  recognitionMs: number | null;
  interviewerMs: number | null;
}

/** Milliseconds since `started` (performance.now()), whole. */
export function elapsedMs(started: number): number {
  return Math.max(0, Math.round(performance.now() - started));
}

/**
 * What one report cannot say: its turn ended before the speech in it did, or the participant
 * spoke over AI audio that never played. 422 naming the field, before anything is stored.
 */
export function assertVoiceTiming(timing: TVoiceTiming | undefined): void {
  if (!timing) return;
  if (timing.speechEndedAt !== undefined && timing.endOfTurnAt !== undefined && timing.endOfTurnAt < timing.speechEndedAt) {
    throw validationError([{ path: 'voiceTiming.endOfTurnAt', message: 'must not be before speechEndedAt' }]);
  }
  if (timing.bargeIn === true && timing.aiAudioStartedAt === null) {
    throw validationError([{ path: 'voiceTiming.bargeIn', message: 'cannot be true when aiAudioStartedAt is null (the AI audio never played)' }]);
  }
}

/** The answer's own figures, for its utterance row. */
export function answerTimingFields(timing: TVoiceTiming | undefined): Pick<SessionUtterance, 'speechEndedAt' | 'endOfTurnAt' | 'manualEnd'> {
  return {
    speechEndedAt: timing?.speechEndedAt === undefined ? null : new Date(timing.speechEndedAt),
    endOfTurnAt: timing?.endOfTurnAt === undefined ? null : new Date(timing.endOfTurnAt),
    manualEnd: timing?.manual ?? null,
  };
}

/** What an answer's report says about the turns before it (answeredTurnTimingOf). */
export interface AnsweredTurnTiming {
  /** On the AI turn it answers: when its audio started, whether it was spoken over, its latency from the answer before it. */
  aiTurn: { audioStartedAt: Date | null; bargeIn: boolean | null; latencyMs: number | null } | null;
  /** On that earlier answer: whether the page cut the participant off. */
  cutOff: { utteranceId: string; cutOff: boolean } | null;
}

/**
 * What an answer's report says about the turns before it, given the answer before the answered
 * AI turn (its id and when its speech ended, if there is one). Null: nothing to write.
 */
export function answeredTurnTimingOf(
  timing: TVoiceTiming | undefined,
  previousAnswer: { id: string | null; speechEndedMs: number | null },
): AnsweredTurnTiming | null {
  if (!timing) return null;
  const reportsTurn = timing.aiAudioStartedAt !== undefined || timing.bargeIn !== undefined;
  if (!reportsTurn && timing.previousCutOff === undefined) return null;
  let aiTurn: AnsweredTurnTiming['aiTurn'] = null;
  if (reportsTurn) {
    const started = timing.aiAudioStartedAt;
    const latency = typeof started === 'number' && previousAnswer.speechEndedMs !== null ? Math.round(started - previousAnswer.speechEndedMs) : null;
    aiTurn = {
      audioStartedAt: started === undefined || started === null ? null : new Date(started),
      bargeIn: timing.bargeIn ?? null,
      latencyMs: latency !== null && latency >= 0 && latency <= MAX_TURN_LATENCY_MS ? latency : null,
    };
  }
  const cutOff = timing.previousCutOff !== undefined && previousAnswer.id ? { utteranceId: previousAnswer.id, cutOff: timing.previousCutOff } : null;
  return aiTurn || cutOff ? { aiTurn, cutOff } : null;
}

/**
 * What an answer's report says about the turns before it, written in the answer's transaction
 * (the locked path; the one-statement path writes answeredTurnTimingOf's figures in its statement).
 */
export async function recordAnsweredTurnTiming(
  tx: EntityManager,
  turn: { organizationId: string; sessionId: string; answeredTurnId: string | null },
  timing: TVoiceTiming | undefined,
): Promise<void> {
  if (!timing || !turn.answeredTurnId) return;
  if (timing.aiAudioStartedAt === undefined && timing.bargeIn === undefined && timing.previousCutOff === undefined) return;
  const { organizationId, sessionId, answeredTurnId } = turn;
  const row = await answeredTurnAndPrevious.first(tx, { organizationId, sessionId, answeredTurnId });
  if (!row) return;
  const written = answeredTurnTimingOf(timing, { id: row.previous_id, speechEndedMs: row.previous_speech_ended_ms });
  if (written?.aiTurn) await recordAiTurnTiming.rows(tx, { organizationId, sessionId, answeredTurnId, ...written.aiTurn });
  if (written?.cutOff) await recordCutOff.rows(tx, { organizationId, sessionId, ...written.cutOff });
}

export { TURN_TAKING_AGGREGATES } from './queries.js';

export interface TurnTakingAggregates {
  tt_turns: number;
  tt_p50: number | null;
  tt_p95: number | null;
  tt_cut_offs: number;
  tt_barge_ins: number;
  tt_voiced: boolean;
}

/** The summary from TURN_TAKING_AGGREGATES: null for a session without voice turns (no answer ever carried a report). */
export function summaryFromRow(row: TurnTakingAggregates): TTurnTakingSummary | null {
  if (!row.tt_voiced) return null;
  return { turns: row.tt_turns, latencyP50Ms: row.tt_p50, latencyP95Ms: row.tt_p95, cutOffs: row.tt_cut_offs, bargeIns: row.tt_barge_ins };
}

/**
 * The `turnTaking` summary of each session (one statement for a page of them): AI turns with a
 * latency, its nearest-rank p50 and p95 (`percentile_disc`, as the benchmarks report theirs),
 * cut-offs and barge-ins. null for a session without voice turns (no answer ever carried a
 * report).
 */
export async function turnTakingSummaries(
  em: EntityManager,
  scope: OrganizationScope,
  input: { sessionIds: string[] },
): Promise<Map<string, TTurnTakingSummary | null>> {
  const { sessionIds } = input;
  const summaries = new Map<string, TTurnTakingSummary | null>(sessionIds.map((id) => [id, null]));
  if (sessionIds.length === 0) return summaries;
  const rows = await turnTakingAggregates.rows(em, { organizationId: scope.organizationId, sessionIds });
  for (const row of rows) summaries.set(row.session_id, summaryFromRow(row));
  return summaries;
}

/** One session's summary (see turnTakingSummaries). */
export async function turnTakingSummary(em: EntityManager, scope: OrganizationScope, input: { sessionId: string }): Promise<TTurnTakingSummary | null> {
  return (await turnTakingSummaries(em, scope, { sessionIds: [input.sessionId] })).get(input.sessionId) ?? null;
}
