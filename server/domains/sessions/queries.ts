import { sql } from '../../db/sql.js';
import { defineQuery } from '../../db/query.js';

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
 * The organization's plan and balance, its row locked. NO KEY UPDATE: rows that reference the
 * organization (utterances, sessions) take KEY SHARE locks on it; a plain FOR UPDATE would hold
 * every insert of the organization behind this.
 */
export const lockOrganizationForCharge = defineQuery({
  columns: { plan: 'text', credit_balance: 'numeric' },
  statement: ({ organizationId }: { organizationId: string }) => sql`select plan, credit_balance from organizations where id = ${organizationId} for no key update`,
  example: { organizationId: 'org_example' },
});

export const releaseHeldCredits = defineQuery({
  columns: {},
  statement: ({ organizationId, credits }: { organizationId: string; credits: number }) =>
    sql`update organizations set credits_held = greatest(credits_held - ${credits}, 0), updated_at = now() where id = ${organizationId}`,
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

export const lockOrganizationDebt = defineQuery({
  columns: { credit_balance: 'numeric', credits_owed: 'numeric' },
  statement: ({ organizationId }: { organizationId: string }) => sql`select credit_balance, credits_owed from organizations where id = ${organizationId} for no key update`,
  example: { organizationId: 'org_example' },
});

export const settleDebt = defineQuery({
  columns: {},
  statement: ({ organizationId, credits }: { organizationId: string; credits: number }) =>
    sql`update organizations set credits_owed = credits_owed - ${credits}, updated_at = now() where id = ${organizationId}`,
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

/** A turn's place on the session's clock. */
export const utteranceTimes = defineQuery({
  columns: { start_time: 'double precision', end_time: 'double precision' },
  statement: ({ utteranceId }: { utteranceId: string | null }) => sql`select start_time, end_time from session_utterances where id = ${utteranceId}`,
  example: { utteranceId: 'utt_example' as string | null },
});

/** When a turn started, on the session's clock. */
export const utteranceStartTime = defineQuery({
  columns: { start_time: 'double precision' },
  statement: ({ utteranceId }: { utteranceId: string }) => sql`select start_time from session_utterances where id = ${utteranceId}`,
  example: { utteranceId: 'utt_example' },
});

/** The value stored on a turn (a `confirm` turn holds the value it reads back). */
export const utteranceValue = defineQuery({
  columns: { value: 'jsonb' },
  statement: ({ utteranceId }: { utteranceId: string | null }) => sql`select value from session_utterances where id = ${utteranceId}`,
  example: { utteranceId: 'utt_example' as string | null },
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
