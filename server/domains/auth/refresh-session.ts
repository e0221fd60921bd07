import type { TSignedIn } from '../../../shared/schemas/members.js';
import { MemberSession } from '../../entities/index.js';
import { AppError } from '../../errors.js';
import { hashSecretToken } from '../../lib/member-tokens.js';
import type { AppServices } from '../../services.js';
import type { Deps } from '../common/deps.js';
import { type ClientInfo, signedInAnswer } from '../members/index.js';
import { lockRefreshTokenParent, presentedRefreshToken, revokeReusedSignIn, spendRefreshToken } from './queries.js';

/**
 * How long a spent token may be presented again by the client that spent it: two tabs refreshing
 * at once (a duplicated tab copies the other's sessionStorage), or a retry after a lost answer.
 */
export const REUSE_GRACE_SECONDS = 10;

function invalidRefreshToken(reason: string): AppError {
  return new AppError('INVALID_REFRESH_TOKEN', 'The refresh token is not valid: sign in again.', { reason });
}

/**
 * `auth.refresh`: spends a refresh token (one conditional update) for a new pair. A spent token
 * presented again means it was copied, and the whole sign-in is ended (OAuth 2.0 Security BCP,
 * refresh token rotation with reuse detection), except in one benign case: within
 * REUSE_GRACE_SECONDS of its use, from the same user agent, while no token issued from it has been
 * used yet. That is one person's two tabs or a retry, and it answers a new sibling pair of the
 * same sign-in instead. A copy played back later, from another client, or after the sign-in has
 * moved on still ends it, and so does spending a sibling once another sibling has been spent (two
 * chains from one token: one of them is a copy).
 */
export async function refreshMemberSession(
  { em, services }: Pick<Deps, 'em'> & { services: Pick<AppServices, 'memberTokens'> },
  input: { refreshToken: string; client: ClientInfo },
): Promise<TSignedIn> {
  const { client } = input;
  const tokenHash = hashSecretToken(input.refreshToken);
  const userAgent = client.userAgent?.slice(0, 500) ?? null;
  const now = new Date();
  return em
    .transactional(async (tx) => {
      // Siblings (pairs the grace gave from one parent) are spent one at a time: the parent's row is
      // the lock, so the check below sees a sibling spent by a concurrent call.
      await lockRefreshTokenParent.rows(tx, { tokenHash });
      // Of concurrent uses, the first wins here; the others wait for its commit and take the path below.
      const spent = await spendRefreshToken.rows(tx, { tokenHash, userAgent });
      let sessionId = spent[0]?.session_id;
      if (spent[0]?.forked) {
        // The grace gave this token's parent two successors and the other one has moved on: this
        // branch is a copy (a real second tab takes the newest pair from the others), so the sign-in
        // ends, as for any reuse. A stolen token can thus not keep a second chain alive.
        await revokeReusedSignIn.rows(tx, { sessionId: sessionId! });
        return { reused: true } as const;
      }
      if (!sessionId) {
        const known = await presentedRefreshToken.first(tx, { tokenHash, userAgent, graceSeconds: REUSE_GRACE_SECONDS });
        if (!known) throw invalidRefreshToken('unknown');
        if (!known.used) throw invalidRefreshToken('expired');
        if (!known.benign) {
          await revokeReusedSignIn.rows(tx, { sessionId: known.session_id });
          // Committed even though the call fails: the reuse must end the sign-in.
          return { reused: true } as const;
        }
        sessionId = known.session_id;
      }
      const session = await tx.findOne(MemberSession, { id: sessionId }, { populate: ['member', 'member.organization'] });
      if (!session || session.revokedAt || session.expiresAt <= now || session.member.status !== 'active') throw invalidRefreshToken('signed_out');
      session.lastRefreshedAt = now;
      return signedInAnswer(tx, services.memberTokens, session.member, session, now, tokenHash);
    })
    .then((answer) => {
      if ('reused' in answer) throw invalidRefreshToken('reused');
      return answer;
    });
}
