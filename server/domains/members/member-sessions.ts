import type { EntityManager } from '@mikro-orm/postgresql';
import type { TSignedIn } from '../../../shared/schemas/members.js';
import { type Member, MemberSession, RefreshToken } from '../../entities/index.js';
import { newId } from '../../lib/ids.js';
import { hashSecretToken, MEMBER_SESSION_MAX_SECONDS, type MemberTokens, newSecretToken, REFRESH_TOKEN_SECONDS } from '../../lib/member-tokens.js';
import type { ClientInfo } from '../common/client-info.js';
import { toMemberDto } from './serialize.js';

/*
 * A member's sign-ins (MemberSession) and their tokens. Here, below auth, because accepting an
 * invitation (members) signs the member in as auth's sign-in and refresh do.
 */

/**
 * A refresh token of the session: valid 30 days, never past the session's own end. `parentHash`
 * names the spent token it replaces (null for a sign-in's first).
 */
export async function issueRefreshToken(
  em: EntityManager,
  session: MemberSession,
  now: Date,
  parentHash: string | null = null,
): Promise<{ token: string; expiresAt: Date }> {
  const token = newSecretToken('rft');
  const expiresAt = new Date(Math.min(now.getTime() + REFRESH_TOKEN_SECONDS * 1000, session.expiresAt.getTime()));
  em.create(RefreshToken, { tokenHash: hashSecretToken(token), session, expiresAt, usedAt: null, parentHash, usedUserAgent: null });
  await em.flush();
  return { token, expiresAt };
}

/** What a sign-in, a refresh and an accepted invitation answer: a fresh token pair (a refresh passes the spent token's hash). */
export async function signedInAnswer(
  em: EntityManager,
  tokens: MemberTokens,
  member: Member,
  session: MemberSession,
  now: Date,
  parentHash: string | null = null,
): Promise<TSignedIn> {
  const refresh = await issueRefreshToken(em, session, now, parentHash);
  const access = await tokens.issueAccessToken({ memberId: member.id, organizationId: member.organization.id, sessionId: session.id }, now);
  return {
    accessToken: access.token,
    accessTokenExpiresAt: access.expiresAt.toISOString(),
    refreshToken: refresh.token,
    refreshTokenExpiresAt: refresh.expiresAt.toISOString(),
    member: toMemberDto(member),
    organization: { id: member.organization.id, name: member.organization.name },
  };
}

/** A new signed-in session (one device) for an active member, with its first tokens. */
export async function startMemberSession(em: EntityManager, tokens: MemberTokens, member: Member, client: ClientInfo): Promise<TSignedIn> {
  const now = new Date();
  const session = em.create(MemberSession, {
    id: newId('mss'),
    member,
    lastRefreshedAt: null,
    expiresAt: new Date(now.getTime() + MEMBER_SESSION_MAX_SECONDS * 1000),
    revokedAt: null,
    revokedReason: null,
    ipAddress: client.ip ?? null,
    userAgent: client.userAgent?.slice(0, 500) ?? null,
  });
  member.lastSignInAt = now;
  await em.flush();
  return signedInAnswer(em, tokens, member, session, now);
}
