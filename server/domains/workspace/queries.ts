import { defineQuery } from '../../db/query.js';
import { isoTimestamp, rawSql, sql } from '../../db/sql.js';
import { TURN_TAKING_AGGREGATES, TURN_TAKING_COLUMNS } from '../sessions/index.js';

/** The organization's session as the workspace shows it, with its campaign, live comment count and turn-taking aggregates. */
export const workspaceSessionRow = defineQuery({
  columns: {
    id: 'text',
    campaign_id: 'text',
    campaign_name: 'text',
    project_id: 'text | null',
    status: 'text',
    completion_status: 'text | null',
    participant_name: 'text | null',
    participant_email: 'text | null',
    language: 'text',
    started_at: 'text | null',
    completed_at: 'text | null',
    duration_seconds: 'integer',
    sentiment: 'text | null',
    sentiment_score: 'double precision | null',
    transcript_status: 'text | null',
    script_id: 'text',
    script_version: 'integer',
    comment_count: 'integer',
    ...TURN_TAKING_COLUMNS,
  },
  statement: ({ organizationId, sessionId }: { organizationId: string; sessionId: string }) =>
    sql`select s.id, s.campaign_id, c.name as campaign_name, c.project_id, s.status, s.completion_status, s.participant_name, s.participant_email,
               s.language, ${rawSql(isoTimestamp('s.started_at'))} as started_at, ${rawSql(isoTimestamp('s.completed_at'))} as completed_at, s.duration_seconds,
               s.sentiment, s.sentiment_score, s.transcript_status, s.script_id, s.script_version,
               (select count(*)::int from comments m where m.session_id = s.id and m.organization_id = s.organization_id and m.deleted_at is null) as comment_count,
               tt.*
          from sessions s join campaigns c on c.id = s.campaign_id
          cross join lateral (select ${TURN_TAKING_AGGREGATES} from session_utterances u where u.session_id = s.id and u.organization_id = s.organization_id) tt
         where s.id = ${sessionId} and s.organization_id = ${organizationId}`,
  example: { organizationId: 'org_example', sessionId: 'ses_example' },
});

/** The session's utterances with text, in order, with their effective sentiment, timing, probe and highlight and comment counts. */
export const workspaceUtteranceRows = defineQuery({
  columns: {
    id: 'text',
    speaker: 'text',
    text: 'text',
    start_time: 'double precision',
    end_time: 'double precision',
    question_id: 'text | null',
    audio_file_id: 'text | null',
    sentiment: 'text | null',
    analysed_sentiment: 'text | null',
    overridden: 'boolean',
    latency_ms: 'integer | null',
    recognition_ms: 'integer | null',
    interviewer_ms: 'integer | null',
    synthesis_ms: 'integer | null',
    barge_in: 'boolean | null',
    cut_off: 'boolean | null',
    probe: 'jsonb | null',
    highlight_count: 'integer',
    comment_count: 'integer',
  },
  statement: ({ organizationId, sessionId }: { organizationId: string; sessionId: string }) =>
    sql`select u.id, u.speaker, u.text, u.start_time, u.end_time, u.question_id, u.audio_file_id,
                 coalesce(u.sentiment_override, u.sentiment) as sentiment, u.sentiment as analysed_sentiment, u.sentiment_override is not null as overridden,
                 u.latency_ms, u.recognition_ms, u.interviewer_ms, u.synthesis_ms, u.barge_in, u.cut_off, u.probe,
                 (select count(*)::int from highlights h where h.utterance_id = u.id and h.organization_id = ${organizationId}) as highlight_count,
                 (select count(*)::int from comments m where m.utterance_id = u.id and m.organization_id = ${organizationId} and m.deleted_at is null) as comment_count
            from session_utterances u
           where u.session_id = ${sessionId} and u.organization_id = ${organizationId} and u.text is not null
           order by u.seq`,
  example: { organizationId: 'org_example', sessionId: 'ses_example' },
});
