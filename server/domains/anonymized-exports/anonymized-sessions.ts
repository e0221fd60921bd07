import type { EntityManager } from '@mikro-orm/postgresql';
import type { TCompletionStatus, TParsedAnswer, TSessionStatus } from '../../../shared/schemas/sessions.js';
import type { TSentiment } from '../../../shared/schemas/transcripts.js';
import { isoTimestamp, queryRows, rawSql, type Sql, sql } from '../../db/sql.js';
import { loadPlan } from '../sessions/index.js';
import { readTranscriptUtterances, type TranscriptRow } from '../transcripts/index.js';
import { storedSentiment } from '../common/stored-sentiment.js';
import { IDENTITY_COLUMNS, type IdentityRow, sessionScrubber } from './identity-scrubber.js';
import type { Pseudonyms } from './pseudonyms.js';
import { isStructuredQuestion } from '../../../shared/schemas/scripts.js';

/** Sessions read per query: memory stays flat however many an export holds. */
const BATCH_SIZE = 100;


/** One utterance as an anonymized export carries it: no id, times from the session's start, effective sentiment. */
export interface AnonymizedUtterance {
  index: number;
  speaker: 'ai' | 'participant';
  questionId: string | null;
  text: string;
  startTime: number;
  endTime: number;
  sentiment: TSentiment | null;
  keywords: string[];
  /** Parsed value of a structured answer (rating, yes/no, choice); null otherwise or when unreadable. */
  value: number | boolean | string | null;
}

/** One session as an anonymized export carries it: pseudonyms instead of ids, nothing that says who the participant is. */
export interface AnonymizedSession {
  id: string;
  campaignId: string;
  participantId: string;
  status: TSessionStatus;
  completionStatus: TCompletionStatus | null;
  language: string;
  durationSeconds: number;
  questionsAnswered: number;
  totalQuestions: number;
  sentiment: { overall: TSentiment; score: number } | null;
  transcriptStatus: 'ready' | 'none' | 'pending';
  answers: { questionId: string; question: string | null; type: string | null; value: number | boolean | string | null }[];
  utterances: AnonymizedUtterance[];
}

interface SessionRow extends IdentityRow {
  id: string;
  campaign_id: string;
  invite_id: string;
  status: TSessionStatus;
  completion_status: TCompletionStatus | null;
  language: string;
  duration_seconds: number;
  questions_answered: number;
  total_questions: number;
  sentiment: TSentiment | null;
  sentiment_score: number | null;
  answers: TParsedAnswer[];
  script_id: string;
  script_version: number;
  transcript_status: 'ready' | 'none' | null;
  created_at: string;
}

/** What an anonymized export covers: finished sessions of these campaigns, or these sessions (already checked to be the organization's). */
export type AnonymizedScope = { organizationId: string } & ({ campaignIds: string[] } | { sessionIds: string[] });

function scopeCondition(scope: AnonymizedScope): Sql {
  return 'campaignIds' in scope
    ? sql`s.campaign_id in (select jsonb_array_elements_text(${JSON.stringify(scope.campaignIds)}::jsonb))`
    : sql`s.id in (select jsonb_array_elements_text(${JSON.stringify(scope.sessionIds)}::jsonb))`;
}

/**
 * The scope's finished sessions, oldest first, anonymized: read in batches by keyset with one
 * query for the batch's utterances (never one per session), each session's text scrubbed of PII
 * and of its participant's identity, ids replaced by `pseudonyms`.
 */
export async function* anonymizedSessions(em: EntityManager, scope: AnonymizedScope, pseudonyms: Pseudonyms): AsyncGenerator<AnonymizedSession> {
  let after: Sql = sql``;
  for (;;) {
    const rows: SessionRow[] = await queryRows<SessionRow>(
      em,
      sql`select s.id, s.campaign_id, s.invite_id, s.status, s.completion_status, s.language, s.duration_seconds, s.questions_answered, s.total_questions,
                 s.sentiment, s.sentiment_score, s.answers, s.script_id, s.script_version, s.transcript_status,
                 ${IDENTITY_COLUMNS}, ${rawSql(isoTimestamp('s.created_at'))} as created_at
            from sessions s left join invites i on i.id = s.invite_id
           where s.organization_id = ${scope.organizationId} and s.status in ('completed', 'abandoned') and not s.preview and ${scopeCondition(scope)} ${after}
           order by s.created_at, s.id limit ${BATCH_SIZE}`,
    );
    if (rows.length === 0) return;
    const utterances = await readTranscriptUtterances(
      em,
      rows.filter((row) => row.transcript_status === 'ready').map((row) => row.id),
    );
    for (const row of rows) yield await anonymize(em, row, utterances.get(row.id) ?? [], pseudonyms);
    const last = rows.at(-1)!;
    after = sql`and (s.created_at, s.id) > (${last.created_at}::timestamptz, ${last.id})`;
    if (rows.length < BATCH_SIZE) return;
  }
}

async function anonymize(
  em: EntityManager,
  row: SessionRow,
  spoken: TranscriptRow[],
  pseudonyms: Pseudonyms,
): Promise<AnonymizedSession> {
  const plan = await loadPlan(em, { scriptId: row.script_id, scriptVersion: row.script_version });
  const questions = new Map(plan.questions.map((question) => [question.id, question]));
  const scrubber = sessionScrubber(row, spoken.map((utterance) => utterance.text));
  const clean = (value: TParsedAnswer['value']) => (typeof value === 'string' ? scrubber.piece(value) : value);
  // The same person answering twice (one address, two invites) is one participant of the export.
  const email = row.participant_email ?? row.invite_email;
  return {
    id: pseudonyms.of('session', row.id),
    campaignId: pseudonyms.of('campaign', row.campaign_id),
    participantId: pseudonyms.of('participant', email ? `email:${email.toLowerCase()}` : `invite:${row.invite_id}`),
    status: row.status,
    completionStatus: row.completion_status,
    language: row.language,
    durationSeconds: row.duration_seconds,
    questionsAnswered: row.questions_answered,
    totalQuestions: row.total_questions,
    sentiment: storedSentiment(row.sentiment, row.sentiment_score),
    transcriptStatus: row.transcript_status ?? 'pending',
    answers: row.answers.map((answer) => {
      const question = questions.get(answer.questionId);
      return { questionId: answer.questionId, question: question?.text ?? null, type: question?.type ?? null, value: clean(answer.value) };
    }),
    utterances: spoken.map((utterance, index) => {
      const structured = utterance.speaker === 'participant' && utterance.questionId !== null && isStructuredQuestion({ type: questions.get(utterance.questionId)?.type ?? 'open' });
      return {
        index,
        speaker: utterance.speaker,
        questionId: utterance.questionId,
        text: scrubber.utterance(utterance.text),
        startTime: utterance.startTime,
        endTime: utterance.endTime,
        sentiment: utterance.sentiment,
        keywords: scrubber.keywords(utterance.text, utterance.keywords ?? []),
        value: structured ? clean(utterance.value) : null,
      };
    }),
  };
}
