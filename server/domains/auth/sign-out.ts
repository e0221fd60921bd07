import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * `auth.signOut`: ends the caller's sign-in (or all of the member's with `everywhere`). Its
 * refresh tokens stop at once, and so do its access tokens: each request checks the session.
 */
export async function signOut(em: EntityManager, caller: { memberId: string; memberSessionId: string }, everywhere: boolean): Promise<{ signedOutSessions: number }> {
  const rows = await em.execute<{ id: string }[]>(
    `update member_sessions set revoked_at = now(), revoked_reason = 'sign_out'
     where member_id = ? and revoked_at is null and (? or id = ?) returning id`,
    [caller.memberId, everywhere, caller.memberSessionId],
  );
  return { signedOutSessions: rows.length };
}
