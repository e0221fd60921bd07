import { defineQuery } from '../../db/query.js';
import { sql } from '../../db/sql.js';

/** The access token's sign-in, while it is on and its member active: the member's current role and the organization's plan. */
export const activeSignIn = defineQuery({
  columns: { role: 'text', plan: 'text', rate_limit_per_minute: 'integer | null' },
  statement: ({ sessionId, memberId, organizationId }: { sessionId: string; memberId: string; organizationId: string }) =>
    sql`select m.role, o.plan, o.rate_limit_per_minute
     from member_sessions s join members m on m.id = s.member_id join organizations o on o.id = m.organization_id
     where s.id = ${sessionId} and s.member_id = ${memberId} and m.organization_id = ${organizationId} and s.revoked_at is null and s.expires_at > now() and m.status = 'active'`,
  example: { sessionId: 'mss_example', memberId: 'mem_example', organizationId: 'org_example' },
});

/** Locks the parent of a refresh token (the grace's siblings are spent one at a time). */
export const lockRefreshTokenParent = defineQuery({
  columns: { token_hash: 'text' },
  statement: ({ tokenHash }: { tokenHash: string }) =>
    sql`select parent.token_hash from refresh_tokens child join refresh_tokens parent on parent.token_hash = child.parent_hash
       where child.token_hash = ${tokenHash} for update of parent`,
  example: { tokenHash: 'example-hash' },
});

/** Spends an unused, unexpired refresh token; `forked` when a sibling of it was spent already. */
export const spendRefreshToken = defineQuery({
  columns: { session_id: 'text', forked: 'boolean' },
  statement: ({ tokenHash, userAgent }: { tokenHash: string; userAgent: string | null }) =>
    sql`update refresh_tokens token set used_at = now(), used_user_agent = ${userAgent} where token_hash = ${tokenHash} and used_at is null and expires_at > now()
       returning session_id, exists (select 1 from refresh_tokens sibling
         where sibling.parent_hash = token.parent_hash and sibling.token_hash <> token.token_hash and sibling.used_at is not null) as forked`,
  example: { tokenHash: 'example-hash', userAgent: null as string | null },
});

/**
 * A refresh token that could not be spent, locked: whether it was used, and whether presenting it
 * again is benign (within the grace, from the same user agent, no successor spent yet).
 */
export const presentedRefreshToken = defineQuery({
  columns: { session_id: 'text', used: 'boolean', benign: 'boolean' },
  statement: ({ tokenHash, userAgent, graceSeconds }: { tokenHash: string; userAgent: string | null; graceSeconds: number }) =>
    sql`select session_id, used_at is not null as used,
           used_at > now() - make_interval(secs => ${graceSeconds}) and used_user_agent is not distinct from ${userAgent}
             and not exists (select 1 from refresh_tokens successor where successor.parent_hash = token.token_hash and successor.used_at is not null) as benign
         from refresh_tokens token where token_hash = ${tokenHash} for update`,
  example: { tokenHash: 'example-hash', userAgent: null as string | null, graceSeconds: 10 },
});

/** Ends a sign-in whose refresh token was played back. */
export const revokeReusedSignIn = defineQuery({
  columns: {},
  statement: ({ sessionId }: { sessionId: string }) =>
    sql`update member_sessions set revoked_at = now(), revoked_reason = 'refresh_token_reused' where id = ${sessionId} and revoked_at is null`,
  example: { sessionId: 'mss_example' },
});

/** Ends the caller's sign-in, or every sign-in of the member with `everywhere`. */
export const signOutSessions = defineQuery({
  columns: { id: 'text' },
  statement: ({ memberId, memberSessionId, everywhere }: { memberId: string; memberSessionId: string; everywhere: boolean }) =>
    sql`update member_sessions set revoked_at = now(), revoked_reason = 'sign_out'
     where member_id = ${memberId} and revoked_at is null and (${everywhere} or id = ${memberSessionId}) returning id`,
  example: { memberId: 'mem_example', memberSessionId: 'mss_example', everywhere: false as boolean },
});

/**
 * Counts a sign-in attempt for a subject (an email or an address), locking its row: a new window
 * after the old one ended, a lock when the count reaches `limit`. Answers the count, the lock held
 * before this attempt and the seconds until the later lock ends.
 */
export const countSignInAttempt = defineQuery({
  columns: { failures: 'integer', locked_before: 'timestamp with time zone | null', seconds: 'numeric | null' },
  statement: ({ subject, limit, window, lock }: { subject: string; limit: number; window: string; lock: string }) =>
    sql`with before as (
         select locked_until from sign_in_throttles where subject = ${subject} for update
       ), counted as (
         insert into sign_in_throttles as t (subject, failures, window_started_at, locked_until)
         values (${subject}, 1, now(), case when 1 >= ${limit} then now() + ${lock}::interval end)
         on conflict (subject) do update set
           failures = case when t.window_started_at < now() - ${window}::interval then 1 else t.failures + 1 end,
           window_started_at = case when t.window_started_at < now() - ${window}::interval then now() else t.window_started_at end,
           locked_until = case
             when (case when t.window_started_at < now() - ${window}::interval then 1 else t.failures + 1 end) = ${limit} then now() + ${lock}::interval
             else t.locked_until end
         returning failures, locked_until
       )
       select counted.failures, (select locked_until from before) as locked_before,
              ceil(extract(epoch from greatest((select locked_until from before), counted.locked_until) - now())) as seconds
       from counted`,
  example: { subject: 'email:ana@example.com', limit: 5, window: '900 seconds', lock: '900 seconds' },
});

/** A success clears the email's count. */
export const clearSignInFailures = defineQuery({
  columns: {},
  statement: ({ subject }: { subject: string }) => sql`delete from sign_in_throttles where subject = ${subject}`,
  example: { subject: 'email:ana@example.com' },
});

/** A success takes itself back from the address's count (lifting its lock when below `limit`). */
export const takeBackSignInAttempt = defineQuery({
  columns: {},
  statement: ({ subject, limit }: { subject: string; limit: number }) =>
    sql`update sign_in_throttles set failures = greatest(failures - 1, 0),
       locked_until = case when failures - 1 < ${limit} then null else locked_until end
     where subject = ${subject}`,
  example: { subject: 'ip:203.0.113.1', limit: 20 },
});

/** Deletes counts whose window ended and that hold no lock; answers how many. */
export const purgeStaleThrottles = defineQuery({
  columns: { count: 'bigint' },
  statement: ({ window }: { window: string }) =>
    sql`with deleted as (
       delete from sign_in_throttles
       where window_started_at < now() - ${window}::interval and (locked_until is null or locked_until < now())
       returning 1)
     select count(*) as count from deleted`,
  example: { window: '900 seconds' },
});
