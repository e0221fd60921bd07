import type { MemberAuth } from '../common/caller.js';
import type { Deps } from '../common/deps.js';
import { signOutSessions } from './queries.js';

/**
 * `auth.signOut`: ends the caller's sign-in (or all of the member's with `everywhere`). Its
 * refresh tokens stop at once, and so do its access tokens: each request checks the session.
 */
export async function signOut(
  { em }: Pick<Deps, 'em'>,
  caller: Pick<MemberAuth, 'memberId' | 'memberSessionId'>,
  input: { everywhere: boolean },
): Promise<{ signedOutSessions: number }> {
  const rows = await signOutSessions.rows(em, { memberId: caller.memberId, memberSessionId: caller.memberSessionId, everywhere: input.everywhere });
  return { signedOutSessions: rows.length };
}
