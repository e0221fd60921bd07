import { rawSql, sql } from '../../db/sql.js';
import { defineQuery } from '../../db/query.js';
import type { JobSpec } from '../../jobs/add-jobs.js';
import { addJobsSql } from '../../jobs/queries.js';
import { utteranceRow } from './record-utterance.js';
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

/**
 * What `session__announce_start` decides on, its session row locked: a second run waits here for
 * the first to commit, then (in its next statement) sees the event the first recorded.
 */
export const lockSessionStartToAnnounce = defineQuery({
  columns: { organization_id: 'text', started_at: 'timestamp with time zone | null', preview: 'boolean' },
  statement: ({ sessionId }: { sessionId: string }) => sql`select organization_id, started_at, preview from sessions where id = ${sessionId} for no key update`,
  example: { sessionId: 'ses_example' },
});

/** Whether the session's `session.started` is recorded. */
export const sessionStartAnnounced = defineQuery({
  columns: { announced: 'boolean' },
  statement: ({ sessionId }: { sessionId: string }) =>
    sql`select exists (select 1 from webhook_events where session_id = ${sessionId} and type = 'session.started') as announced`,
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
  columns: { id: 'text', livemode: 'boolean' },
  // A test world's interviews cost nothing: it holds nothing and always may start.
  statement: ({ organizationId, credits }: { organizationId: string; credits: number }) =>
    sql`update organizations set credits_held = credits_held + case when live_organization_id is null then ${credits}::numeric else 0 end, updated_at = now()
     where id = ${organizationId} and (live_organization_id is not null or credit_balance - credits_held - credits_owed >= ${credits}::numeric)
     returning id, live_organization_id is null as livemode`,
  example: { organizationId: 'org_example', credits: 1 },
});

/** How many interviews a test world started in the last 24 hours (test mode caps them: they cost no credits). */
export const testInterviewsToday = defineQuery({
  columns: { started: 'integer' },
  statement: ({ organizationId }: { organizationId: string }) =>
    sql`select count(*)::integer as started from sessions where organization_id = ${organizationId} and created_at > now() - interval '24 hours'`,
  example: { organizationId: 'org_example' },
});

/**
 * A finishing session's credit hold released, answering the organization's plan and balance as
 * they are now: the update locks the row (NO KEY UPDATE, as an update of non-key columns does:
 * rows that reference the organization, utterances and sessions, take KEY SHARE locks on it and
 * are not held behind this) and answers the newest version of it, after any concurrent finish.
 */
export const releaseHeldCredits = defineQuery({
  columns: { plan: 'text', credit_balance: 'numeric', livemode: 'boolean' },
  statement: ({ organizationId, credits }: { organizationId: string; credits: number }) =>
    sql`update organizations set credits_held = greatest(credits_held - ${credits}, 0), updated_at = now() where id = ${organizationId}
        returning plan, credit_balance, live_organization_id is null as livemode`,
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
    next_seq: 'integer',
    active_since: 'timestamp with time zone | null',
    active_seconds: 'double precision',
    max_duration_seconds: 'integer | null',
    preview: 'boolean',
    hold_credits: 'numeric',
    pending_start_time: 'double precision | null',
    pending_end_time: 'double precision | null',
    pending_value: 'jsonb | null',
    previous_answer_id: 'text | null',
    previous_speech_ended_ms: 'double precision | null',
    turns: 'jsonb',
    script_media: 'jsonb',
  },
  statement: ({ inviteId, wholeConversation }: { inviteId: string; wholeConversation: boolean }) => {
    const asking = wholeConversation ? sql`` : sql` and u.speaker = 'ai' and u.kind in ('question', 're_ask', 'follow_up')`;
    return sql`select s.id, s.organization_id, s.status, s.consent_required, s.consent, s.language, s.voice, s.script_id, s.script_version, s.started_at,
        s.question_index, s.pending, s.pending_utterance_id, s.follow_ups_asked, s.re_asked, s.next_seq, s.active_since, s.active_seconds, s.max_duration_seconds,
        s.preview, s.hold_credits, p.start_time as pending_start_time, p.end_time as pending_end_time, p.value as pending_value,
        a.id as previous_answer_id, (extract(epoch from a.speech_ended_at) * 1000)::float8 as previous_speech_ended_ms,
        coalesce((select jsonb_agg(jsonb_build_object('speaker', u.speaker, 'kind', u.kind, 'text', u.text, 'questionId', u.question_id, 'probe', u.probe) order by u.seq)
                  from session_utterances u where u.session_id = s.id${asking}), '[]') as turns,
        coalesce((select jsonb_agg(jsonb_build_object('id', m.id, 'questionId', m.question_id, 'kind', m.kind, 'contentType', m.content_type, 'alt', m.alt) order by m.created_at, m.id)
                  from script_media m where m.script_id = s.script_id and m.organization_id = s.organization_id and m.question_id is not null), '[]') as script_media
      from sessions s left join session_utterances p on p.id = s.pending_utterance_id and p.session_id = s.id
      left join session_utterances a on a.session_id = s.id and a.seq = p.seq - 1 and a.speaker = 'participant'
      where s.invite_id = ${inviteId} and s.status = any(${[...UNFINISHED_SESSION_STATUSES]}::text[])`;
  },
  example: { inviteId: 'inv_example', wholeConversation: false },
});

/** One row of `session_utterances` as an answer turn writes it (recordAnswerTurn). */
export interface UtteranceRow {
  id: string;
  seq: number;
  speaker: 'ai' | 'participant';
  kind: string;
  text: string | null;
  question_id: string | null;
  value: unknown;
  start_time: number;
  end_time: number;
  confidence: number | null;
  audio_file_id: string | null;
  decided_by: string | null;
  probe: unknown;
  heard_check: string | null;
  speech_ended_at: Date | null;
  end_of_turn_at: Date | null;
  manual_end: boolean | null;
  recognition_ms: number | null;
  interviewer_ms: number | null;
}

/** An answer turn written in one statement (answer-interview.ts, `recordTurnInOneStatement`). */
export interface AnswerTurnWrite {
  organizationId: string;
  sessionId: string;
  answeredTurnId: string;
  /** The session as the answer was prepared with it: the write applies only if it is still so. */
  expected: { nextSeq: number; activeSince: string | null; activeSeconds: number; holdCredits: string };
  /**
   * The closing answer: the session completes (its clock stopped at `activeSeconds`), its invite
   * is consumed and its credit hold released, answering the organization's plan and balance for
   * its bill (billFinishedSession, in the same transaction). Null for every other turn.
   */
  finish: { activeSeconds: number } | null;
  session: {
    questionIndex: number;
    followUpsAsked: number;
    reAsked: boolean;
    pending: string;
    pendingUtteranceId: string;
    questionsAnswered: 0 | 1;
    /** The structured answer this turn settled (replacing its question's earlier one), if any. */
    answer: { questionId: string; value: unknown; utteranceId: string; confidence: number | null } | null;
    durationSeconds: number;
    at: Date;
  };
  /** The answer's recording, stored already. */
  file: { id: string; name: string; contentType: string; sizeBytes: number; durationSeconds: number | null; sha256: string; storageKey: string } | null;
  /** The answer, then the AI turn it leads to. */
  utterances: UtteranceRow[];
  /** What the page reported of the answered AI turn (voice), if anything. */
  answeredTurnTiming: { audioStartedAt: Date | null; bargeIn: boolean | null; latencyMs: number | null } | null;
  /** Whether the page cut the participant off on the answer before (voice), if it said. */
  cutOff: { utteranceId: string; cutOff: boolean } | null;
}

/**
 * An answer turn in one statement, without a transaction's extra round trips or a row lock held
 * across them: the session's update checks that it is still as the answer was prepared with it
 * (in progress, the same pending turn, no turn recorded since, the clock not paused or resumed
 * since), and every other row of the turn is written only if that update was. No row: the session
 * moved on; the caller then takes the locked path, which says what happened.
 */
export const recordAnswerTurn = defineQuery({
  columns: {
    id: 'text',
    status: 'text',
    completion_status: 'text | null',
    language: 'text',
    consent_required: 'boolean',
    consent: 'jsonb | null',
    questions_answered: 'integer',
    total_questions: 'integer',
    active_seconds: 'double precision',
    active_since: 'timestamp with time zone | null',
    started_at: 'timestamp with time zone | null',
    completed_at: 'timestamp with time zone | null',
    created_at: 'timestamp with time zone',
    /** The closing turn's: the organization as the hold's release left it; null for every other turn. */
    plan: 'text | null',
    credit_balance: 'numeric | null',
    livemode: 'boolean | null',
  },
  statement: (turn: AnswerTurnWrite) => {
    const { expected, session: next, file, finish } = turn;
    const answers = next.answer
      ? sql`(select coalesce(jsonb_agg(e.entry order by e.n), '[]'::jsonb) from jsonb_array_elements(s.answers) with ordinality as e(entry, n)
               where e.entry->>'questionId' is distinct from ${next.answer.questionId}) || jsonb_build_array(${JSON.stringify(next.answer)}::jsonb)`
      : sql`s.answers`;
    const fileInsert = file
      ? sql`,
     file as (
       insert into session_files (id, organization_id, session_id, kind, name, content_type, size_bytes, duration_seconds, sha256, storage_key, created_at, updated_at)
       select ${file.id}, s.organization_id, s.id, 'audio', ${file.name}, ${file.contentType}, ${file.sizeBytes}, ${file.durationSeconds}, ${file.sha256}, ${file.storageKey}, ${next.at}, ${next.at}
         from updated s)`
      : sql``;
    const timing = turn.answeredTurnTiming
      ? sql`,
     answered_turn as (
       update session_utterances set audio_started_at = ${turn.answeredTurnTiming.audioStartedAt}, barge_in = ${turn.answeredTurnTiming.bargeIn}, latency_ms = ${turn.answeredTurnTiming.latencyMs}
        where id = ${turn.answeredTurnId} and session_id = ${turn.sessionId} and organization_id = ${turn.organizationId} and exists (select 1 from updated))`
      : sql``;
    const cutOff = turn.cutOff
      ? sql`,
     cut_off as (
       update session_utterances set cut_off = ${turn.cutOff.cutOff}
        where id = ${turn.cutOff.utteranceId} and session_id = ${turn.sessionId} and organization_id = ${turn.organizationId} and exists (select 1 from updated))`
      : sql``;
    // The closing turn completes the session (as finishSession does); every other turn puts the next one.
    const position = finish
      ? sql`status = 'completed', completion_status = 'completed', completed_at = ${next.at}, pending = null, pending_utterance_id = null,
              active_seconds = ${finish.activeSeconds}, active_since = null, hold_credits = 0`
      : sql`question_index = ${next.questionIndex}, follow_ups_asked = ${next.followUpsAsked}, re_asked = ${next.reAsked}, pending = ${next.pending},
              pending_utterance_id = ${next.pendingUtteranceId}`;
    // Lock order session → invite → organization, as everywhere a session is finished: each CTE's condition reads the one before.
    const finishing = finish
      ? sql`,
     completed_invite as (
       update invites set status = 'completed', completed_at = ${next.at}, updated_at = now()
        where id = (select invite_id from updated) and status <> 'cancelled'
       returning id),
     released as (
       update organizations set credits_held = greatest(credits_held - ${expected.holdCredits}::numeric, 0), updated_at = now()
        where id = ${turn.organizationId} and exists (select 1 from updated) and (select count(*) from completed_invite) >= 0
       returning plan, credit_balance, live_organization_id is null as livemode)`
      : sql``;
    const bill = finish
      ? sql`(select plan from released) as plan, (select credit_balance from released) as credit_balance, (select livemode from released) as livemode`
      : sql`null::text as plan, null::numeric as credit_balance, null::boolean as livemode`;
    return sql`with updated as (
       update sessions s
          set next_seq = s.next_seq + ${turn.utterances.length}, ${position},
              questions_answered = s.questions_answered + ${next.questionsAnswered}, answers = ${answers},
              last_activity_at = ${next.at}, duration_seconds = ${next.durationSeconds}, updated_at = ${next.at}
        where s.id = ${turn.sessionId} and s.organization_id = ${turn.organizationId} and s.status = 'in_progress'
          and s.pending_utterance_id = ${turn.answeredTurnId} and s.next_seq = ${expected.nextSeq}
          and s.active_since is not distinct from ${expected.activeSince}::timestamptz and s.active_seconds = ${expected.activeSeconds}
          and s.hold_credits = ${expected.holdCredits}::numeric
       returning s.id, s.organization_id, s.invite_id, s.status, s.completion_status, s.language, s.consent_required, s.consent, s.questions_answered, s.total_questions,
                 s.active_seconds, s.active_since, s.started_at, s.completed_at, s.created_at)${fileInsert},
     turns as (
       insert into session_utterances (id, organization_id, session_id, seq, speaker, kind, text, question_id, value, start_time, end_time, confidence,
                                       audio_file_id, decided_by, probe, heard_check, speech_ended_at, end_of_turn_at, manual_end, recognition_ms, interviewer_ms, created_at)
       select u.id, s.organization_id, s.id, u.seq, u.speaker, u.kind, u.text, u.question_id, u.value, u.start_time, u.end_time, u.confidence,
              u.audio_file_id, u.decided_by, u.probe, u.heard_check, u.speech_ended_at, u.end_of_turn_at, u.manual_end, u.recognition_ms, u.interviewer_ms, ${next.at}
         from updated s
         cross join jsonb_to_recordset(${JSON.stringify(turn.utterances)}::jsonb) as u(id text, seq integer, speaker text, kind text, text text, question_id text,
              value jsonb, start_time double precision, end_time double precision, confidence double precision, audio_file_id text, decided_by text, probe jsonb,
              heard_check text, speech_ended_at timestamptz, end_of_turn_at timestamptz, manual_end boolean, recognition_ms integer, interviewer_ms integer))${timing}${cutOff}${finishing}
     select id, status, completion_status, language, consent_required, consent, questions_answered, total_questions, active_seconds, active_since, started_at,
            completed_at, created_at, ${bill}
       from updated`;
  },
  example: {
    organizationId: 'org_example',
    sessionId: 'ses_example',
    answeredTurnId: 'utt_example',
    expected: { nextSeq: 3, activeSince: '1970-01-01 00:00:00+00', activeSeconds: 0, holdCredits: '1' },
    finish: { activeSeconds: 12 },
    session: {
      questionIndex: 1,
      followUpsAsked: 0,
      reAsked: false,
      pending: 'question',
      pendingUtteranceId: 'utt_next',
      questionsAnswered: 1,
      answer: { questionId: 'q1', value: 4, utteranceId: 'utt_answer', confidence: null },
      durationSeconds: 12,
      at: new Date(0),
    },
    file: { id: 'fil_example', name: 'fil_example.webm', contentType: 'audio/webm', sizeBytes: 1, durationSeconds: 1, sha256: 'x', storageKey: 'k' },
    utterances: [],
    answeredTurnTiming: { audioStartedAt: null, bargeIn: null, latencyMs: null },
    cutOff: { utteranceId: 'utt_previous', cutOff: false },
  } as AnswerTurnWrite,
});

/**
 * A finished session's bill recorded, and the transcript job that starts what follows it (the
 * closing answer written in one statement: answer-interview.ts, after billFinishedSession).
 */
export const recordSessionBill = defineQuery({
  columns: { jobs: 'bigint' },
  statement: ({ organizationId, sessionId, billing, jobs }: { organizationId: string; sessionId: string; billing: unknown; jobs: JobSpec[] }) =>
    sql`with billed as (
       update sessions set billing = ${JSON.stringify(billing)}::jsonb where id = ${sessionId} and organization_id = ${organizationId} returning id
     )
     select count(*) as jobs from ${addJobsSql(jobs, sql`exists (select 1 from billed)`)} as queued`,
  example: {
    organizationId: 'org_example',
    sessionId: 'ses_example',
    billing: { totalMinutes: 1 } as unknown,
    jobs: [{ task: 'session__generate_transcript', payload: { sessionId: 'ses_example' }, jobKey: 'session-transcript:ses_example' }] as JobSpec[],
  },
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

/**
 * What starting an invite's interview reads before anything is locked (start-interview.ts,
 * `startInOneStatement`): the invite, its campaign and organization, the script version a new
 * session would run (the invite's own, else the published one), whether the invite has had any
 * session, and the media of the version's first question.
 */
export const startContext = defineQuery({
  columns: {
    invite_status: 'text',
    unexpired: 'boolean',
    via_share_link: 'boolean',
    invite_script_version: 'integer | null',
    invite_language: 'text | null',
    email: 'text | null',
    name: 'text | null',
    metadata: 'jsonb',
    invite_updated_at: 'timestamp with time zone',
    campaign_id: 'text',
    campaign_status: 'text',
    preview: 'boolean',
    campaign_settings: 'jsonb',
    plan: 'text',
    livemode: 'boolean',
    script_id: 'text',
    version: 'integer | null',
    system_prompt: 'text | null',
    questions: 'jsonb | null',
    settings: 'jsonb | null',
    had_session: 'boolean',
    first_question_media: 'jsonb',
  },
  statement: ({ organizationId, inviteId }: { organizationId: string; inviteId: string }) =>
    sql`select i.status as invite_status, i.expires_at > now() as unexpired, i.share_link_id is not null as via_share_link,
        i.script_version as invite_script_version, i.language as invite_language, i.email, i.name, i.metadata, i.updated_at as invite_updated_at,
        c.id as campaign_id, c.status as campaign_status, c.preview, c.settings as campaign_settings, o.plan, o.live_organization_id is null as livemode,
        sc.id as script_id, v.version, v.system_prompt, v.questions, v.settings,
        exists (select 1 from sessions x where x.invite_id = i.id) as had_session,
        coalesce((select jsonb_agg(jsonb_build_object('id', m.id, 'questionId', m.question_id, 'kind', m.kind, 'contentType', m.content_type, 'alt', m.alt) order by m.created_at, m.id)
                  from script_media m where m.script_id = sc.id and m.organization_id = i.organization_id and m.question_id = v.questions->0->>'id'), '[]') as first_question_media
      from invites i
      join campaigns c on c.id = i.campaign_id
      join organizations o on o.id = i.organization_id
      join scripts sc on sc.id = c.script_id
      left join script_versions v on v.script_id = sc.id and v.version = coalesce(i.script_version, sc.published_version)
      where i.id = ${inviteId} and i.organization_id = ${organizationId}`,
  example: { organizationId: 'org_example', inviteId: 'inv_example' },
});

/** A new session as the common start writes it (recordInterviewStart): in progress, its first question asked. */
export interface InterviewStartWrite {
  organizationId: string;
  inviteId: string;
  /** What the session was made from, as read: the write applies only if it is still so. */
  expected: {
    campaignId: string;
    campaignSettings: unknown;
    /** As read (compared with the column as it is then). */
    inviteUpdatedAt: string;
    scriptId: string;
    /** The published version the session runs; null when the invite names its own. */
    publishedVersion: number | null;
    plan: string;
  };
  holdCredits: number;
  session: {
    id: string;
    scriptVersion: number;
    language: string;
    voice: string | null;
    participantEmail: string | null;
    participantName: string | null;
    device: unknown;
    metadata: unknown;
    maxDurationSeconds: number | null;
    totalQuestions: number;
    at: Date;
  };
  /** The first question. */
  turn: UtteranceRow;
  /** The jobs that watch the session (its idleness, its maximum duration). */
  jobs: JobSpec[];
}

/**
 * The common start in one statement: a pending invite's first session, in progress with its
 * first question asked, its credit hold and its watching jobs. It locks as the locked start does
 * (campaign for share, then the invite, then the organization: each lock is taken by a CTE the
 * next one's condition reads, so the order holds whichever CTE PostgreSQL runs first) and writes
 * only if everything is still as read: the campaign active with the same script and settings, the invite
 * pending, unexpired and unchanged, the script's published version the one read, the
 * organization on the same plan with the credits to hold. No row: the caller takes the locked
 * start, which says what happened.
 */
export const recordInterviewStart = defineQuery({
  columns: { id: 'text' },
  statement: ({ organizationId, inviteId, expected, holdCredits: hold, session, turn, jobs }: InterviewStartWrite) =>
    sql`with campaign as (
       select c.id from campaigns c
        where c.id = ${expected.campaignId} and c.organization_id = ${organizationId} and c.status = 'active'
          and c.script_id = ${expected.scriptId} and c.settings = ${JSON.stringify(expected.campaignSettings)}::jsonb
        for share
     ), invite as (
       select i.id from invites i
        where i.id = ${inviteId} and i.organization_id = ${organizationId} and i.campaign_id = ${expected.campaignId} and i.status = 'pending'
          and i.expires_at > ${session.at} and i.updated_at = ${expected.inviteUpdatedAt}::timestamptz and exists (select 1 from campaign)
        for update
     ), held as (
       update organizations set credits_held = credits_held + ${hold}, updated_at = ${session.at}
        where id = ${organizationId} and plan = ${expected.plan} and credit_balance - credits_held - credits_owed >= ${hold}
          and exists (select 1 from invite)
          and exists (select 1 from scripts sc where sc.id = ${expected.scriptId} and (${expected.publishedVersion}::integer is null or sc.published_version = ${expected.publishedVersion}))
       returning id
     ), claimed as (
       update invites set status = 'started', started_at = ${session.at}, updated_at = ${session.at}
        where id = (select id from invite) and exists (select 1 from held)
       returning id
     ), created as (
       insert into sessions (id, organization_id, campaign_id, invite_id, script_id, script_version, preview, status, completion_status, language, voice,
                             participant_email, participant_name, device, metadata, consent_required, consent, pause_reason, started_at, completed_at,
                             last_activity_at, active_since, active_seconds, duration_seconds, max_duration_seconds, total_questions, questions_answered,
                             answers, question_index, pending, pending_utterance_id, follow_ups_asked, re_asked, next_seq, hold_credits, billing,
                             transcript_generated_at, insights_generated_at, completion_announced_at, created_at, updated_at)
       select ${session.id}, ${organizationId}, ${expected.campaignId}, claimed.id, ${expected.scriptId}, ${session.scriptVersion}, false, 'in_progress', null,
              ${session.language}, ${session.voice}, ${session.participantEmail}, ${session.participantName}, ${JSON.stringify(session.device)}::jsonb,
              ${JSON.stringify(session.metadata)}::jsonb, false, null, null, ${session.at}, null, ${session.at}, ${session.at}, 0, 0, ${session.maxDurationSeconds},
              ${session.totalQuestions}, 0, '[]'::jsonb, 0, 'question', ${turn.id}, 0, false, 1, ${hold}, null, null, null, null, ${session.at}, ${session.at}
         from claimed
       returning id
     ), asked as (
       insert into session_utterances (id, organization_id, session_id, seq, speaker, kind, text, question_id, value, start_time, end_time, decided_by, created_at)
       select ${turn.id}, ${organizationId}, created.id, ${turn.seq}, ${turn.speaker}, ${turn.kind}, ${turn.text}, ${turn.question_id}, null,
              ${turn.start_time}, ${turn.end_time}, ${turn.decided_by}, ${session.at}
         from created
     ), queued as (
       select count(*) as jobs from ${addJobsSql(jobs, sql`exists (select 1 from created)`)} as queued_jobs
     )
     select created.id from created, queued`,
  example: {
    organizationId: 'org_example',
    inviteId: 'inv_example',
    expected: {
      campaignId: 'cam_example',
      campaignSettings: {},
      inviteUpdatedAt: '1970-01-01 00:00:00+00',
      scriptId: 'scr_example',
      publishedVersion: 1 as number | null,
      plan: 'free',
    },
    holdCredits: 1,
    session: {
      id: 'ses_example',
      scriptVersion: 1,
      language: 'en',
      voice: null as string | null,
      participantEmail: null as string | null,
      participantName: null as string | null,
      device: { type: 'desktop' },
      metadata: {},
      maxDurationSeconds: null as number | null,
      totalQuestions: 1,
      at: new Date(0),
    },
    turn: {
      ...utteranceRow(0, { speaker: 'ai', kind: 'question', text: 'How was it?', questionId: 'q1', startTime: 0, endTime: 1 }),
      decided_by: 'engine',
    },
    jobs: [{ task: 'session__abandon_idle', payload: { sessionId: 'ses_example' }, jobKey: 'session-idle:ses_example', runAt: new Date(0) }] as JobSpec[],
  } as InterviewStartWrite,
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
