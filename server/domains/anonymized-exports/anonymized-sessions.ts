import type { EntityManager } from '@mikro-orm/postgresql';
import type { Deps } from '../common/deps.js';
import type { TCompletionStatus, TParsedAnswer, TSessionStatus } from '../../../shared/schemas/sessions.js';
import type { TSentiment } from '../../../shared/schemas/transcripts.js';
import { loadPlan } from '../sessions/index.js';
import type { TranscriptRow } from '../transcripts/index.js';
import { finishedSessions, type FinishedSessionRow } from '../exports/index.js';
import { storedSentiment } from '../common/stored-sentiment.js';
import { sessionScrubber } from './identity-scrubber.js';
import type { Pseudonyms } from './pseudonyms.js';
import { isStructuredQuestion } from '../../../shared/schemas/scripts.js';

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

/** What an anonymized export covers: finished sessions of these campaigns, or these sessions (already checked to be the organization's). */
export type AnonymizedScope = { organizationId: string } & ({ campaignIds: string[] } | { sessionIds: string[] });

/**
 * The scope's finished sessions, oldest first, anonymized, through the loop exports use
 * (exports/finished-sessions.ts): each session's text scrubbed of PII and of its participant's
 * identity, ids replaced by `pseudonyms`.
 */
export function anonymizedSessions(
  { em }: Pick<Deps, 'em'>,
  { scope, pseudonyms }: { scope: AnonymizedScope; pseudonyms: Pseudonyms },
): AsyncGenerator<AnonymizedSession> {
  return finishedSessions(em, scope, (row, spoken) => anonymize(em, row, spoken, pseudonyms));
}

async function anonymize(em: EntityManager, row: FinishedSessionRow, spoken: TranscriptRow[], pseudonyms: Pseudonyms): Promise<AnonymizedSession> {
  const plan = await loadPlan(em, { scriptId: row.script_id, scriptVersion: row.script_version });
  const questions = new Map(plan.questions.map((question) => [question.id, question]));
  const scrubber = sessionScrubber(
    row,
    spoken.map((utterance) => utterance.text),
  );
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
      const structured =
        utterance.speaker === 'participant' &&
        utterance.questionId !== null &&
        isStructuredQuestion({ type: questions.get(utterance.questionId)?.type ?? 'open' });
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
