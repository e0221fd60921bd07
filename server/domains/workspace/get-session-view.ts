import type { EntityManager } from '@mikro-orm/postgresql';
import type { TProbeLedger } from '../../../shared/schemas/probes.js';
import type { TWorkspaceSession, TWorkspaceUtterance } from '../../../shared/schemas/workspace.js';
import { WORKSPACE_LINK_TTL_SECONDS } from '../../../shared/schemas/workspace.js';
import type { TSentiment } from '../../../shared/schemas/transcripts.js';
import { isoTimestamp, queryRows, rawSql, sql } from '../../db/sql.js';
import { notFound } from '../../errors.js';
import type { UrlSigner } from '../../lib/signed-urls.js';
import { loadPlan, sessionRecordings, summaryFromRow, TURN_TAKING_AGGREGATES, type TurnTakingAggregates } from '../sessions/index.js';
import { storedSentiment } from '../common/stored-sentiment.js';

interface SessionRow extends TurnTakingAggregates {
  id: string;
  campaign_id: string;
  campaign_name: string;
  project_id: string | null;
  status: TWorkspaceSession['session']['status'];
  completion_status: TWorkspaceSession['session']['completionStatus'];
  participant_name: string | null;
  participant_email: string | null;
  language: string;
  started_at: string | null;
  completed_at: string | null;
  duration_seconds: number;
  sentiment: TSentiment | null;
  sentiment_score: number | null;
  transcript_status: 'ready' | 'none' | null;
  script_id: string;
  script_version: number;
  comment_count: number;
}

interface UtteranceRow {
  id: string;
  speaker: 'ai' | 'participant';
  text: string;
  start_time: number;
  end_time: number;
  question_id: string | null;
  audio_file_id: string | null;
  sentiment: TSentiment | null;
  analysed_sentiment: TSentiment | null;
  overridden: boolean;
  highlight_count: number;
  comment_count: number;
  latency_ms: number | null;
  recognition_ms: number | null;
  interviewer_ms: number | null;
  synthesis_ms: number | null;
  barge_in: boolean | null;
  cut_off: boolean | null;
  probe: TProbeLedger | null;
}

function timingOf(row: UtteranceRow): TWorkspaceUtterance['timing'] {
  if (row.speaker === 'participant') return { cutOff: row.cut_off };
  return { latencyMs: row.latency_ms, recognitionMs: row.recognition_ms, interviewerMs: row.interviewer_ms, synthesisMs: row.synthesis_ms, bargeIn: row.barge_in };
}

/**
 * `workspace.session`: the session, its transcript with each utterance's effective sentiment
 * (`coalesce(sentiment_override, sentiment)`, as every reader of sentiment uses) and the number
 * of highlights and comments on it and its turn-taking figures, and the recording with a link
 * valid one hour. At most four statements (the last three side by side; the script's plan is often cached) whatever the length
 * of the transcript; another organization's session is 404.
 */
export async function getSessionView(em: EntityManager, signer: UrlSigner, organizationId: string, sessionId: string): Promise<TWorkspaceSession> {
  const [session] = await queryRows<SessionRow>(
    em,
    sql`select s.id, s.campaign_id, c.name as campaign_name, c.project_id, s.status, s.completion_status, s.participant_name, s.participant_email,
               s.language, ${rawSql(isoTimestamp('s.started_at'))} as started_at, ${rawSql(isoTimestamp('s.completed_at'))} as completed_at, s.duration_seconds,
               s.sentiment, s.sentiment_score, s.transcript_status, s.script_id, s.script_version,
               (select count(*)::int from comments m where m.session_id = s.id and m.organization_id = s.organization_id and m.deleted_at is null) as comment_count,
               tt.*
          from sessions s join campaigns c on c.id = s.campaign_id
          cross join lateral (select ${TURN_TAKING_AGGREGATES} from session_utterances u where u.session_id = s.id and u.organization_id = s.organization_id) tt
         where s.id = ${sessionId} and s.organization_id = ${organizationId}`,
  );
  if (!session) throw notFound('session', sessionId);

  const [utterances, recordings, plan] = await Promise.all([
    queryRows<UtteranceRow>(
      em,
      sql`select u.id, u.speaker, u.text, u.start_time, u.end_time, u.question_id, u.audio_file_id,
                 coalesce(u.sentiment_override, u.sentiment) as sentiment, u.sentiment as analysed_sentiment, u.sentiment_override is not null as overridden,
                 u.latency_ms, u.recognition_ms, u.interviewer_ms, u.synthesis_ms, u.barge_in, u.cut_off, u.probe,
                 (select count(*)::int from highlights h where h.utterance_id = u.id and h.organization_id = ${organizationId}) as highlight_count,
                 (select count(*)::int from comments m where m.utterance_id = u.id and m.organization_id = ${organizationId} and m.deleted_at is null) as comment_count
            from session_utterances u
           where u.session_id = ${sessionId} and u.organization_id = ${organizationId} and u.text is not null
           order by u.seq`,
    ),
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
      status: session.status,
      completionStatus: session.completion_status,
      participant: { name: session.participant_name, email: session.participant_email },
      language: session.language,
      startedAt: session.started_at,
      completedAt: session.completed_at,
      duration: session.duration_seconds,
      sentiment: storedSentiment(session.sentiment, session.sentiment_score),
      transcriptStatus: session.transcript_status ?? 'pending',
      turnTaking: summaryFromRow(session),
    },
    utterances: utterances.map((row) => ({
      id: row.id,
      speaker: row.speaker,
      text: row.text,
      startTime: row.start_time,
      endTime: row.end_time,
      questionId: row.question_id,
      questionText: row.question_id ? (questionText.get(row.question_id) ?? null) : null,
      sentiment: row.sentiment,
      analysedSentiment: row.analysed_sentiment,
      sentimentOverridden: row.overridden,
      highlightCount: row.highlight_count,
      commentCount: row.comment_count,
      timing: timingOf(row),
      probe: row.probe,
    })),
    recording: link,
    counts: {
      highlights: utterances.reduce((sum, row) => sum + row.highlight_count, 0),
      comments: session.comment_count,
    },
  };
}
