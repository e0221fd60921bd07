import { rawSql, sql } from '../../db/sql.js';
import { defineQuery } from '../../db/query.js';
import { UNFINISHED_SESSION_STATUSES } from '../../../shared/schemas/sessions.js';

/** What every event of a session says of it, fixed when the event happens (session-event-facts.ts). */
export const sessionEventFacts = defineQuery({
  columns: {
    session_id: 'text',
    project_id: 'text | null',
    script_id: 'text',
    campaign_id: 'text',
    campaign_name: 'text',
    participant_email: 'text | null',
    participant_name: 'text | null',
    metadata: 'jsonb',
    language: 'text',
    duration_seconds: 'integer',
    questions_answered: 'integer',
    total_questions: 'integer',
    completion_status: 'text | null',
    billing: 'jsonb | null',
  },
  statement: ({ sessionId }: { sessionId: string }) =>
    sql`select s.id as session_id, coalesce(c.project_id, sc.project_id) as project_id, s.script_id, c.id as campaign_id, c.name as campaign_name,
            s.participant_email, s.participant_name, s.metadata, s.language, s.duration_seconds, s.questions_answered, s.total_questions,
            s.completion_status, s.billing
       from sessions s join campaigns c on c.id = s.campaign_id join scripts sc on sc.id = s.script_id
      where s.id = ${sessionId}`,
  example: { sessionId: 'ses_example' },
});

/** Each session's one recording (session-recordings.ts has the rule). */
export const sessionRecordingRows = defineQuery({
  columns: { session_id: 'text', id: 'text', storage_key: 'text', content_type: 'text', duration_seconds: 'double precision | null' },
  statement: ({ sessionIds }: { sessionIds: string[] }) =>
    sql`select distinct on (f.session_id) f.session_id, f.id, f.storage_key, f.content_type, f.duration_seconds
       from session_files f
      where f.session_id = any(${sessionIds}::text[])
        and (f.kind = 'merged_audio'
             or (f.kind = 'audio' and not exists (select 1 from session_files other where other.session_id = f.session_id and other.kind = 'audio' and other.id <> f.id)))
      order by f.session_id, f.kind = 'merged_audio' desc, f.created_at desc`,
  example: { sessionIds: ['ses_example'] },
});

/**
 * Holds credits for a starting session, only when the organization has them available
 * (balance − held − owed): one conditional update, so concurrent starts never hold more than the balance.
 */
export const holdCredits = defineQuery({
  columns: { id: 'text' },
  statement: ({ organizationId, credits }: { organizationId: string; credits: number }) =>
    sql`update organizations set credits_held = credits_held + ${credits}, updated_at = now()
     where id = ${organizationId} and credit_balance - credits_held - credits_owed >= ${credits} returning id`,
  example: { organizationId: 'org_example', credits: 1 },
});

/**
 * A finishing session's credit hold released, answering the organization's plan and balance as
 * they are now: the update locks the row (NO KEY UPDATE, as an update of non-key columns does:
 * rows that reference the organization, utterances and sessions, take KEY SHARE locks on it and
 * are not held behind this) and answers the newest version of it, after any concurrent finish.
 */
export const releaseHeldCredits = defineQuery({
  columns: { plan: 'text', credit_balance: 'numeric' },
  statement: ({ organizationId, credits }: { organizationId: string; credits: number }) =>
    sql`update organizations set credits_held = greatest(credits_held - ${credits}, 0), updated_at = now() where id = ${organizationId}
        returning plan, credit_balance`,
  example: { organizationId: 'org_example', credits: 1 },
});

export const freeMinutesUsed = defineQuery({
  columns: { free_minutes_used: 'integer' },
  statement: ({ organizationId, periodStart }: { organizationId: string; periodStart: Date }) =>
    sql`select free_minutes_used from billing_usage where organization_id = ${organizationId} and period_start = ${periodStart}`,
  example: { organizationId: 'org_example', periodStart: new Date(0) },
});

/** Adds a finished session's minutes to the organization's usage of the billing period. */
export const addSessionUsage = defineQuery({
  columns: {},
  statement: ({ organizationId, periodStart, minutes, freeMinutes }: { organizationId: string; periodStart: Date; minutes: number; freeMinutes: number }) =>
    sql`insert into billing_usage (organization_id, period_start, minutes, free_minutes_used, sessions) values (${organizationId}, ${periodStart}, ${minutes}, ${freeMinutes}, 1)
     on conflict (organization_id, period_start) do update set minutes = billing_usage.minutes + excluded.minutes,
       free_minutes_used = billing_usage.free_minutes_used + excluded.free_minutes_used, sessions = billing_usage.sessions + 1`,
  example: { organizationId: 'org_example', periodStart: new Date(0), minutes: 1, freeMinutes: 0 },
});

export const addOwedCredits = defineQuery({
  columns: {},
  statement: ({ organizationId, credits }: { organizationId: string; credits: number }) =>
    sql`update organizations set credits_owed = credits_owed + ${credits}, updated_at = now() where id = ${organizationId}`,
  example: { organizationId: 'org_example', credits: 1 },
});

/** A completed interview consumes its invite (a cancelled one stays cancelled). */
export const completeInvite = defineQuery({
  columns: {},
  statement: ({ inviteId, completedAt }: { inviteId: string; completedAt: Date }) =>
    sql`update invites set status = 'completed', completed_at = ${completedAt}, updated_at = now() where id = ${inviteId} and status <> 'cancelled'`,
  example: { inviteId: 'inv_example', completedAt: new Date(0) },
});

/** The check turn, the answer before it and the turn that answer replied to, newest first. */
export const heardCheckTurns = defineQuery({
  columns: {
    id: 'text',
    seq: 'integer',
    speaker: 'text',
    kind: 'text',
    text: 'text | null',
    confidence: 'double precision | null',
    heard_check: 'text | null',
    end_time: 'double precision',
  },
  statement: ({ sessionId, checkId }: { sessionId: string; checkId: string | null }) =>
    sql`select u.id, u.seq, u.speaker, u.kind, u.text, u.confidence, u.heard_check, u.end_time
       from session_utterances u
       join session_utterances c on c.session_id = u.session_id and c.id = ${checkId} and u.seq between c.seq - 2 and c.seq
      where u.session_id = ${sessionId}
      order by u.seq desc`,
  example: { sessionId: 'ses_example', checkId: 'utt_example' as string | null },
});

/**
 * What preparing an answer reads, in one statement: the invite's unfinished session (the fields
 * an answer is prepared with), its pending turn (times, and the value a confirmation reads back),
 * its earlier turns (the whole conversation, oldest first, or only the AI's asking turns), and
 * the script's question media (the next turn's are among them, whichever question it puts).
 */
export const answerContext = defineQuery({
  columns: {
    id: 'text',
    organization_id: 'text',
    status: 'text',
    consent_required: 'boolean',
    consent: 'jsonb | null',
    language: 'text',
    voice: 'text | null',
    script_id: 'text',
    script_version: 'integer',
    started_at: 'timestamp with time zone | null',
    question_index: 'integer',
    pending: 'text | null',
    pending_utterance_id: 'text | null',
    follow_ups_asked: 'integer',
    re_asked: 'boolean',
    pending_start_time: 'double precision | null',
    pending_end_time: 'double precision | null',
    pending_value: 'jsonb | null',
    turns: 'jsonb',
    script_media: 'jsonb',
  },
  statement: ({ inviteId, wholeConversation }: { inviteId: string; wholeConversation: boolean }) => {
    const asking = wholeConversation ? sql`` : sql` and u.speaker = 'ai' and u.kind in ('question', 're_ask', 'follow_up')`;
    return sql`select s.id, s.organization_id, s.status, s.consent_required, s.consent, s.language, s.voice, s.script_id, s.script_version, s.started_at,
        s.question_index, s.pending, s.pending_utterance_id, s.follow_ups_asked, s.re_asked,
        p.start_time as pending_start_time, p.end_time as pending_end_time, p.value as pending_value,
        coalesce((select jsonb_agg(jsonb_build_object('speaker', u.speaker, 'kind', u.kind, 'text', u.text, 'questionId', u.question_id, 'probe', u.probe) order by u.seq)
                  from session_utterances u where u.session_id = s.id${asking}), '[]') as turns,
        coalesce((select jsonb_agg(jsonb_build_object('id', m.id, 'questionId', m.question_id, 'kind', m.kind, 'contentType', m.content_type, 'alt', m.alt) order by m.created_at, m.id)
                  from script_media m where m.script_id = s.script_id and m.organization_id = s.organization_id and m.question_id is not null), '[]') as script_media
      from sessions s left join session_utterances p on p.id = s.pending_utterance_id and p.session_id = s.id
      where s.invite_id = ${inviteId} and s.status = any(${[...UNFINISHED_SESSION_STATUSES]}::text[])`;
  },
  example: { inviteId: 'inv_example', wholeConversation: false },
});

/** The script version a new session runs: the invite's own (a preview's), else the script's published one. */
export const versionToRun = defineQuery({
  columns: { version: 'integer', system_prompt: 'text', questions: 'jsonb', settings: 'jsonb' },
  statement: ({ scriptId, version }: { scriptId: string; version: number | null }) =>
    sql`select v.version, v.system_prompt, v.questions, v.settings
       from scripts s join script_versions v on v.script_id = s.id and v.version = coalesce(${version}::integer, s.published_version)
      where s.id = ${scriptId}`,
  example: { scriptId: 'scr_example', version: 1 as number | null },
});

export const confirmHeardAnswer = defineQuery({
  columns: {},
  statement: ({ sessionId, answerId }: { sessionId: string; answerId: string }) =>
    sql`update session_utterances set heard_check = 'confirmed' where id = ${answerId} and session_id = ${sessionId} and heard_check = 'unclear'`,
  example: { sessionId: 'ses_example', answerId: 'utt_example' },
});

/** The participant's correction becomes the answer's text; the recognised text is kept for audit. */
export const correctHeardAnswer = defineQuery({
  columns: {},
  statement: ({ sessionId, answerId, text }: { sessionId: string; answerId: string; text: string }) =>
    sql`update session_utterances set heard_as = text, text = ${text}, confidence = null, heard_check = 'corrected' where id = ${answerId} and session_id = ${sessionId} and heard_check = 'unclear'`,
  example: { sessionId: 'ses_example', answerId: 'utt_example', text: '' },
});

/** Marks a finished session's completion announced, once: no row when another run did. */
export const claimCompletionAnnouncement = defineQuery({
  columns: { organization_id: 'text', announced_at: 'timestamp with time zone', preview: 'boolean' },
  statement: ({ sessionId }: { sessionId: string }) =>
    sql`update sessions set completion_announced_at = now(), updated_at = now()
        where id = ${sessionId} and completion_announced_at is null and status in ('completed', 'abandoned') returning organization_id, completion_announced_at as announced_at, preview`,
  example: { sessionId: 'ses_example' },
});

/** The answered AI turn and the participant's answer before it (when the previous speech ended, epoch ms). */
export const answeredTurnAndPrevious = defineQuery({
  columns: { previous_id: 'text | null', previous_speech_ended_ms: 'double precision | null' },
  statement: (turn: { organizationId: string; sessionId: string; answeredTurnId: string }) =>
    sql`select p.id as previous_id, (extract(epoch from p.speech_ended_at) * 1000)::float8 as previous_speech_ended_ms
          from session_utterances t
          left join session_utterances p on p.session_id = t.session_id and p.organization_id = t.organization_id and p.seq = t.seq - 1 and p.speaker = 'participant'
         where t.id = ${turn.answeredTurnId} and t.session_id = ${turn.sessionId} and t.organization_id = ${turn.organizationId} and t.speaker = 'ai'`,
  example: { organizationId: 'org_example', sessionId: 'ses_example', answeredTurnId: 'utt_example' },
});

/** What the page reported of an AI turn: when its audio started, whether it was barged in on, the latency. */
export const recordAiTurnTiming = defineQuery({
  columns: {},
  statement: (turn: {
    organizationId: string;
    sessionId: string;
    answeredTurnId: string;
    audioStartedAt: Date | null;
    bargeIn: boolean | null;
    latencyMs: number | null;
  }) =>
    sql`update session_utterances
             set audio_started_at = ${turn.audioStartedAt},
                 barge_in = ${turn.bargeIn},
                 latency_ms = ${turn.latencyMs}
           where id = ${turn.answeredTurnId} and session_id = ${turn.sessionId} and organization_id = ${turn.organizationId}`,
  example: {
    organizationId: 'org_example',
    sessionId: 'ses_example',
    answeredTurnId: 'utt_example',
    audioStartedAt: null as Date | null,
    bargeIn: null as boolean | null,
    latencyMs: null as number | null,
  },
});

/** Whether the page cut the participant off on an answer. */
export const recordCutOff = defineQuery({
  columns: {},
  statement: (answer: { organizationId: string; sessionId: string; utteranceId: string; cutOff: boolean }) =>
    sql`update session_utterances set cut_off = ${answer.cutOff}
           where id = ${answer.utteranceId} and session_id = ${answer.sessionId} and organization_id = ${answer.organizationId}`,
  example: { organizationId: 'org_example', sessionId: 'ses_example', utteranceId: 'utt_example', cutOff: false },
});

/** The turn-taking summary's aggregates over a session's utterance rows (`tt_*` columns; see summaryFromRow). */
export const TURN_TAKING_AGGREGATES = rawSql(
  `count(latency_ms)::int as tt_turns,
   percentile_disc(0.5) within group (order by latency_ms) as tt_p50,
   percentile_disc(0.95) within group (order by latency_ms) as tt_p95,
   count(*) filter (where cut_off)::int as tt_cut_offs,
   count(*) filter (where barge_in)::int as tt_barge_ins,
   coalesce(bool_or(speech_ended_at is not null or end_of_turn_at is not null or manual_end is not null or cut_off is not null
                    or audio_started_at is not null or barge_in is not null), false) as tt_voiced`,
);

/** The columns TURN_TAKING_AGGREGATES adds to a row, for the statements that select it. */
export const TURN_TAKING_COLUMNS = {
  tt_turns: 'integer',
  tt_p50: 'integer | null',
  tt_p95: 'integer | null',
  tt_cut_offs: 'integer',
  tt_barge_ins: 'integer',
  tt_voiced: 'boolean',
} as const;

/** The turn-taking aggregates of each of the sessions. */
export const turnTakingAggregates = defineQuery({
  columns: { session_id: 'text', ...TURN_TAKING_COLUMNS },
  statement: ({ organizationId, sessionIds }: { organizationId: string; sessionIds: string[] }) =>
    sql`select session_id, ${TURN_TAKING_AGGREGATES}
          from session_utterances
         where session_id = any(${sessionIds}::text[]) and organization_id = ${organizationId}
         group by session_id`,
  example: { organizationId: 'org_example', sessionIds: ['ses_example'] },
});

/** An AI turn's synthesis time, its first figure only. */
export const recordSynthesisMs = defineQuery({
  columns: {},
  statement: (turn: { sessionId: string; utteranceId: string; synthesisMs: number }) =>
    sql`update session_utterances set synthesis_ms = ${turn.synthesisMs}
         where id = ${turn.utteranceId} and session_id = ${turn.sessionId} and speaker = 'ai' and synthesis_ms is null`,
  example: { sessionId: 'ses_example', utteranceId: 'utt_example', synthesisMs: 0 },
});

/** The script's images and audio for one question. */
export const questionMediaRows = defineQuery({
  columns: { id: 'text', kind: 'text', content_type: 'text', alt: 'text | null' },
  statement: ({ organizationId, scriptId, questionId }: { organizationId: string; scriptId: string; questionId: string }) =>
    sql`select m.id, m.kind, m.content_type, m.alt from script_media m
        where m.script_id = ${scriptId} and m.organization_id = ${organizationId} and m.question_id = ${questionId}
        order by m.created_at, m.id`,
  example: { organizationId: 'org_example', scriptId: 'scr_example', questionId: 'q_example' },
});

/** The media file a `question_media` link opens, while its session is unfinished and its script not deleted. */
export const questionMediaForDownload = defineQuery({
  columns: { storage_key: 'text', content_type: 'text', size_bytes: 'bigint', filename: 'text' },
  statement: ({ sessionId, mediaId }: { sessionId: string; mediaId: string }) =>
    sql`select m.storage_key, m.content_type, m.size_bytes, m.filename
        from sessions s
        join script_media m on m.script_id = s.script_id and m.organization_id = s.organization_id
        join scripts sc on sc.id = m.script_id and sc.deleted_at is null
        where s.id = ${sessionId} and m.id = ${mediaId} and s.status in ('created', 'in_progress', 'paused')`,
  example: { sessionId: 'ses_example', mediaId: 'med_example' },
});
