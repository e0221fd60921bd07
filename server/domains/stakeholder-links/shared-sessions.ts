import type { EntityManager } from '@mikro-orm/postgresql';
import type { TParsedAnswer } from '../../../shared/schemas/sessions.js';
import type { TSharedSession } from '../../../shared/schemas/stakeholder-links.js';
import type { Sql } from '../../db/sql.js';
import { sessionScrubber } from '../anonymized-exports/index.js';
import { sharedSessionRows } from './queries.js';
import { loadPlan } from '../sessions/index.js';
import { readTranscriptUtterances, type TranscriptRow } from '../transcripts/index.js';
import { type CampaignIdentityRow, readSharedMetadata } from './shared-metadata.js';

interface SessionRow extends CampaignIdentityRow {
  id: string;
  campaign_name: string;
  status: string;
  completion_status: string | null;
  language: string;
  started_at: string | null;
  duration_seconds: number;
  answers: TParsedAnswer[];
  script_id: string;
  script_version: number;
  transcript_status: 'ready' | 'none' | null;
}

/** How the texts of one session are shown: as they are, or through the anonymized export's scrubber (keeping shared segment values). */
export type SessionText = (text: string) => string;

/**
 * Sessions of the organization that `where` keeps (on `s`), newest first, never a preview one,
 * as a stakeholder sees them: answers with their questions, the transcript when asked for, the
 * participant's name only when PII is not redacted. Two statements (three with PII redacted: the
 * metadata values several participants hold) and one per distinct script version (cached),
 * whatever the number of sessions.
 */
export async function readSharedSessions(
  em: EntityManager,
  organizationId: string,
  where: Sql,
  options: { includeTranscripts: boolean; redactPii: boolean; limit: number },
): Promise<TSharedSession[]> {
  const rows = (await sharedSessionRows.rows(em, { organizationId, where, limit: options.limit })) as SessionRow[];
  // The words are read to find the PII in them even when the transcript is not shown: a free-text answer is cut from them.
  const spoken = await readTranscriptUtterances(
    em,
    options.includeTranscripts || options.redactPii ? rows.filter((row) => row.transcript_status === 'ready').map((row) => row.id) : [],
  );
  const sharedMetadata = options.redactPii ? await readSharedMetadata(em, organizationId, rows) : null;
  const sessions: TSharedSession[] = [];
  for (const row of rows) {
    const utterances: TranscriptRow[] = spoken.get(row.id) ?? [];
    const scrubber = sharedMetadata
      ? sessionScrubber(
          row,
          utterances.map((utterance) => utterance.text),
          { sharedMetadata: sharedMetadata(row.campaign_id) },
        )
      : null;
    const plan = await loadPlan(em, { scriptId: row.script_id, scriptVersion: row.script_version });
    const questions = new Map(plan.questions.map((question) => [question.id, question]));
    sessions.push({
      id: row.id,
      campaignName: row.campaign_name,
      participant: options.redactPii ? null : (row.participant_name ?? row.invite_name ?? row.participant_email ?? row.invite_email),
      status: row.completion_status ?? row.status,
      language: row.language,
      startedAt: row.started_at,
      durationSeconds: row.duration_seconds,
      answers: row.answers.map((answer) => {
        const question = questions.get(answer.questionId);
        return {
          questionId: answer.questionId,
          question: question?.text ?? null,
          type: question?.type ?? null,
          value: typeof answer.value === 'string' && scrubber ? scrubber.piece(answer.value) : answer.value,
        };
      }),
      transcript: options.includeTranscripts
        ? utterances.map((utterance) => ({
            speaker: utterance.speaker,
            text: scrubber ? scrubber.utterance(utterance.text) : utterance.text,
            startTime: utterance.startTime,
            questionId: utterance.questionId,
          }))
        : null,
    });
  }
  return sessions;
}
