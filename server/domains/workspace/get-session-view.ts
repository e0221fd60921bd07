import type { TProbeLedger } from '../../../shared/schemas/probes.js';
import type { TWorkspaceSession, TWorkspaceUtterance } from '../../../shared/schemas/workspace.js';
import { WORKSPACE_LINK_TTL_SECONDS } from '../../../shared/schemas/workspace.js';
import type { TSentiment } from '../../../shared/schemas/transcripts.js';
import type { RowOf } from '../../db/query.js';
import { notFound } from '../../errors.js';
import type { AppServices } from '../../services.js';
import type { Caller } from '../common/caller.js';
import type { Deps } from '../common/deps.js';
import { storedSentiment } from '../common/stored-sentiment.js';
import { loadPlan, sessionRecordings, summaryFromRow } from '../sessions/index.js';
import { workspaceSessionRow, workspaceUtteranceRows } from './queries.js';

type UtteranceRow = RowOf<typeof workspaceUtteranceRows.columns>;

function timingOf(row: UtteranceRow): TWorkspaceUtterance['timing'] {
  if (row.speaker === 'participant') return { cutOff: row.cut_off };
  return {
    latencyMs: row.latency_ms,
    recognitionMs: row.recognition_ms,
    interviewerMs: row.interviewer_ms,
    synthesisMs: row.synthesis_ms,
    bargeIn: row.barge_in,
  };
}

/**
 * `workspace.session`: the session, its transcript with each utterance's effective sentiment
 * (`coalesce(sentiment_override, sentiment)`, as every reader of sentiment uses) and the number
 * of highlights and comments on it and its turn-taking figures, and the recording with a link
 * valid one hour. At most four statements (the last three side by side; the script's plan is often cached) whatever the length
 * of the transcript; another organization's session is 404.
 */
export async function getSessionView(
  { em, services }: Pick<Deps, 'em'> & { services: Pick<AppServices, 'signer'> },
  caller: Caller,
  input: { sessionId: string },
): Promise<TWorkspaceSession> {
  const { sessionId } = input;
  const organizationId = caller.organizationId;
  const signer = services.signer;
  const session = await workspaceSessionRow.first(em, { organizationId, sessionId });
  if (!session) throw notFound('session', sessionId);

  const [utterances, recordings, plan] = await Promise.all([
    workspaceUtteranceRows.rows(em, { organizationId, sessionId }),
    sessionRecordings(em, [sessionId]),
    loadPlan(em, { scriptId: session.script_id, scriptVersion: session.script_version }),
  ]);

  const questionText = new Map(plan.questions.map((question) => [question.id, question.text]));
  const recording = recordings.get(sessionId);
  let link: TWorkspaceSession['recording'] = null;
  if (recording) {
    const signed = await signer.signFileLink({ fileId: recording.fileId, purpose: 'session_file' }, WORKSPACE_LINK_TTL_SECONDS);
    // A lone answer's audio starts where that answer starts; the merged recording at the session's start.
    const answer = utterances.find((utterance) => utterance.audio_file_id === recording.fileId);
    link = {
      url: signed.url,
      expiresAt: signed.expiresAt.toISOString(),
      contentType: recording.contentType,
      durationSeconds: recording.durationSeconds,
      offsetSeconds: answer?.start_time ?? 0,
    };
  }

  return {
    session: {
      id: session.id,
      campaignId: session.campaign_id,
      campaignName: session.campaign_name,
      projectId: session.project_id,
      status: session.status as TWorkspaceSession['session']['status'],
      completionStatus: session.completion_status as TWorkspaceSession['session']['completionStatus'],
      participant: { name: session.participant_name, email: session.participant_email },
      language: session.language,
      startedAt: session.started_at,
      completedAt: session.completed_at,
      duration: session.duration_seconds,
      sentiment: storedSentiment(session.sentiment as TSentiment | null, session.sentiment_score),
      transcriptStatus: (session.transcript_status as 'ready' | 'none' | null) ?? 'pending',
      turnTaking: summaryFromRow(session),
    },
    utterances: utterances.map((row) => ({
      id: row.id,
      speaker: row.speaker as TWorkspaceUtterance['speaker'],
      text: row.text,
      startTime: row.start_time,
      endTime: row.end_time,
      questionId: row.question_id,
      questionText: row.question_id ? (questionText.get(row.question_id) ?? null) : null,
      sentiment: row.sentiment as TSentiment | null,
      analysedSentiment: row.analysed_sentiment as TSentiment | null,
      sentimentOverridden: row.overridden,
      highlightCount: row.highlight_count,
      commentCount: row.comment_count,
      timing: timingOf(row),
      probe: row.probe as TProbeLedger | null,
    })),
    recording: link,
    counts: {
      highlights: utterances.reduce((sum, row) => sum + row.highlight_count, 0),
      comments: session.comment_count,
    },
  };
}
