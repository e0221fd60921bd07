import type { EntityManager } from '@mikro-orm/postgresql';
import { isPlan, type Plan } from '../../../shared/plans.js';
import { MEMBER_ROLES, type MemberRole } from '../../../shared/members.js';
import type { MemberTokens } from '../../lib/member-tokens.js';

export interface AuthenticatedMember {
  organizationId: string;
  memberId: string;
  memberSessionId: string;
  role: MemberRole;
  plan: Plan;
  customRateLimit: number | null;
}

/**
 * A member's access token, checked on every request: the signature and expiry, then one query
 * that the sign-in is still on (not signed out, the member not removed) and reads the current
 * role, so a role change or a removal takes effect at once rather than when the token expires.
 */
export async function authenticateMember(em: EntityManager, tokens: MemberTokens, token: string): Promise<AuthenticatedMember | undefined> {
  const claims = await tokens.verifyAccessToken(token);
  if (!claims) return undefined;
  const [row] = await em.execute<{ role: string; plan: string; rate_limit_per_minute: number | null }[]>(
    `select m.role, o.plan, o.rate_limit_per_minute
     from member_sessions s join members m on m.id = s.member_id join organizations o on o.id = m.organization_id
     where s.id = ? and s.member_id = ? and m.organization_id = ? and s.revoked_at is null and s.expires_at > now() and m.status = 'active'`,
    [claims.sessionId, claims.memberId, claims.organizationId],
  );
  if (!row || !(MEMBER_ROLES as readonly string[]).includes(row.role)) return undefined;
  return {
    organizationId: claims.organizationId,
    memberId: claims.memberId,
    memberSessionId: claims.sessionId,
    role: row.role as MemberRole,
    plan: isPlan(row.plan) ? row.plan : 'free',
    customRateLimit: row.rate_limit_per_minute,
  };
}
