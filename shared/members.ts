import { PERMISSIONS, type Permission } from './permissions.js';

/** A member's role in their organization (design.md "Auth and permissions"). */
export const MEMBER_ROLES = ['owner', 'admin', 'member', 'viewer'] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

export const MEMBER_STATUSES = ['invited', 'active'] as const;
export type MemberStatus = (typeof MEMBER_STATUSES)[number];

const READ_PERMISSIONS = PERMISSIONS.filter((permission) => permission.endsWith(':read'));

/**
 * What each role may do, as the API key permissions: owner everything, admin all but
 * billing:write, member read/write campaigns, invites and sessions and read the rest, viewer read only.
 */
export const ROLE_PERMISSIONS: Record<MemberRole, readonly Permission[]> = {
  owner: PERMISSIONS,
  admin: PERMISSIONS.filter((permission) => permission !== 'billing:write'),
  member: PERMISSIONS.filter((permission) => permission.endsWith(':read') || ['campaigns:write', 'invites:write', 'sessions:write'].includes(permission)),
  viewer: READ_PERMISSIONS,
};

/** Passwords: long enough to resist guessing, short enough to hash cheaply (NIST SP 800-63B). */
export const PASSWORD_LIMITS = { minLength: 10, maxLength: 200 } as const;
