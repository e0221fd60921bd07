import type { EntityManager } from '@mikro-orm/postgresql';
import type { TSignedIn } from '../../../shared/schemas/members.js';
import { MemberSession } from '../../entities/index.js';
import { AppError } from '../../errors.js';
import { hashSecretToken, type MemberTokens } from '../../lib/member-tokens.js';
import { signedInAnswer } from './member-sessions.js';

/** A spent token presented again after this long is a copy: the sign-in is ended. */
const REUSE_GRACE_SECONDS = 10;

function invalidRefreshToken(reason: string): AppError {
  return new AppError('INVALID_REFRESH_TOKEN', 'The refresh token is not valid: sign in again.', { reason });
}

/**
 * `auth.refresh`: spends a refresh token (one conditional update, so of two concurrent uses only
 * one wins) for a new pair. A spent token presented again means it was copied: the whole sign-in
 * is ended (OAuth 2.0 Security BCP, refresh token rotation with reuse detection).
 */
export async function refreshMemberSession(em: EntityManager, tokens: MemberTokens, refreshToken: string): Promise<TSignedIn> {
  const tokenHash = hashSecretToken(refreshToken);
  const now = new Date();
  return em.transactional(async (tx) => {
    const spent = await tx.execute<{ session_id: string }[]>(
      `update refresh_tokens set used_at = now() where token_hash = ? and used_at is null and expires_at > now() returning session_id`,
      [tokenHash],
    );
    if (spent.length === 0) {
      const [known] = await tx.execute<{ session_id: string; used_at: Date | null; just_used: boolean }[]>(
        `select session_id, used_at, used_at > now() - make_interval(secs => ?) as just_used from refresh_tokens where token_hash = ?`,
        [REUSE_GRACE_SECONDS, tokenHash],
      );
      // The same token twice within seconds is two tabs refreshing at once, or a retry after a lost
      // answer: refused, but the sign-in goes on (the winner's new pair is valid).
      if (known?.used_at && known.just_used) throw invalidRefreshToken('already_used');
      if (known?.used_at) {
        await tx.execute(
          `update member_sessions set revoked_at = now(), revoked_reason = 'refresh_token_reused' where id = ? and revoked_at is null`,
          [known.session_id],
        );
        // Committed even though the call fails: the reuse must end the sign-in.
        return { reused: true } as const;
      }
      throw invalidRefreshToken(known ? 'expired' : 'unknown');
    }
    const session = await tx.findOne(MemberSession, { id: spent[0]!.session_id }, { populate: ['member', 'member.organization'] });
    if (!session || session.revokedAt || session.expiresAt <= now || session.member.status !== 'active') throw invalidRefreshToken('signed_out');
    session.lastRefreshedAt = now;
    return signedInAnswer(tx, tokens, session.member, session, now);
  }).then((answer) => {
    if ('reused' in answer) throw invalidRefreshToken('reused');
    return answer;
  });
}
