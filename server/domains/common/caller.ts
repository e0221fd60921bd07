import type { MemberRole } from '../../../shared/members.js';
import type { Permission } from '../../../shared/permissions.js';

/**
 * Who calls a domain operation. Every operation takes one (`operation(deps, caller, input)`): it
 * carries the organization every query is scoped to and who acts, for permission checks and
 * authorship. The HTTP edge resolves it once per request (server/http/authenticate.ts); jobs and
 * the admin CLI act as `SystemCaller`.
 */

/** An API key of the organization. */
export interface ApiKeyAuth {
  kind: 'api_key';
  organizationId: string;
  apiKeyId: string;
  permissions: readonly Permission[];
  /** False for a test key (`isk_test_`): `organizationId` is then the organization's test world. */
  livemode: boolean;
}

/** A signed-in member of a first-party frontend (access JWT): permissions follow the role, read on every request. */
export interface MemberAuth {
  kind: 'member';
  organizationId: string;
  memberId: string;
  /** The member session the access token belongs to (signing out ends it). */
  memberSessionId: string;
  role: MemberRole;
  permissions: readonly Permission[];
}

/** A participant, identified by their invite token (resolved by the authentication middleware). */
export interface ParticipantAuth {
  kind: 'participant';
  organizationId: string;
  inviteId: string;
  /** False when the invite belongs to a test world: its page says it is a test. */
  livemode: boolean;
}

/** The service itself (a background job, the admin CLI, a schedule), acting for one organization. */
export interface SystemCaller {
  kind: 'system';
  organizationId: string;
}

/** A customer's caller: an API key or a signed-in member. */
export type CustomerAuth = ApiKeyAuth | MemberAuth;

/** Who is calling over HTTP: an API key, a member, or a participant with their invite token (only where an operation allows it). */
export type RequestAuth = CustomerAuth | ParticipantAuth;

/** Any caller of a domain operation. */
export type Caller = RequestAuth | SystemCaller;

/** The system acting for `organizationId` (jobs, the CLI). */
export function systemCaller(organizationId: string): SystemCaller {
  return { kind: 'system', organizationId };
}

/** What a function that only scopes its statements to the organization needs of its caller: any `Caller` is one. */
export type OrganizationScope = Pick<Caller, 'organizationId'>;
