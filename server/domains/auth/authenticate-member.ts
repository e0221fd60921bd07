import { isPlan, type Plan } from '../../../shared/plans.js';
import { MEMBER_ROLES, type MemberRole } from '../../../shared/members.js';
import type { AppServices } from '../../services.js';
import type { Deps } from '../common/deps.js';
import { activeSignIn } from './queries.js';

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
 * There is no caller yet: this is how the HTTP edge finds one.
 */
export async function authenticateMember(
  { em, services }: Pick<Deps, 'em'> & { services: Pick<AppServices, 'memberTokens'> },
  input: { accessToken: string },
): Promise<AuthenticatedMember | undefined> {
  const claims = await services.memberTokens.verifyAccessToken(input.accessToken);
  if (!claims) return undefined;
  const row = await activeSignIn.first(em, { sessionId: claims.sessionId, memberId: claims.memberId, organizationId: claims.organizationId });
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
