import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { MEMBER_ROLES, MEMBER_STATUSES } from '../../shared/members.js';
import { timestampProperties } from './base.js';
import { Organization } from './organization.js';

/**
 * A person in an organization, who signs in to first-party frontends. Invited members have no
 * password until they accept; the invitation is a one-use secret stored only as its hash.
 */
export const Member = defineEntity({
  name: 'Member',
  tableName: 'members',
  uniques: [{ properties: ['organization', 'email'] }],
  indexes: [{ properties: ['email'] }],
  properties: {
    id: p.string().primary().columnType('text'),
    organization: () => p.manyToOne(Organization).deleteRule('cascade'),
    /** Lowercased. */
    email: p.string().columnType('text'),
    name: p.string().columnType('text').nullable(),
    role: p.enum([...MEMBER_ROLES]),
    status: p.enum([...MEMBER_STATUSES]),
    /** `scrypt$N$r$p$salt$hash`; null until the invitation is accepted. */
    passwordHash: p.string().columnType('text').nullable(),
    /** SHA-256 of the invitation token; null once accepted. */
    invitationTokenHash: p.string().columnType('text').nullable().unique(),
    invitationExpiresAt: p.datetime(3).nullable(),
    /** The invitation email's delivery: queued, sent, failed (null for members not invited by email). */
    invitationEmailStatus: p.enum(['queued', 'sent', 'failed'] as const).nullable(),
    lastSignInAt: p.datetime(3).nullable(),
    ...timestampProperties,
  },
});

export type Member = InferEntity<typeof Member>;

/**
 * One signed-in device: the refresh tokens it rotates through share it, and revoking it (sign-out,
 * reuse of a spent token, removal of the member) ends its access tokens too.
 */
export const MemberSession = defineEntity({
  name: 'MemberSession',
  tableName: 'member_sessions',
  properties: {
    id: p.string().primary().columnType('text'),
    member: () => p.manyToOne(Member).deleteRule('cascade').index(),
    createdAt: p.datetime(3).onCreate(() => new Date()),
    lastRefreshedAt: p.datetime(3).nullable(),
    /** However often it is refreshed, a session ends here. */
    expiresAt: p.datetime(3),
    revokedAt: p.datetime(3).nullable(),
    revokedReason: p.enum(['sign_out', 'refresh_token_reused', 'member_removed'] as const).nullable(),
    ipAddress: p.string().columnType('text').nullable(),
    userAgent: p.string().columnType('text').nullable(),
  },
});

export type MemberSession = InferEntity<typeof MemberSession>;

/** A refresh token, by its SHA-256: usable once, then replaced by the next one of its session. */
export const RefreshToken = defineEntity({
  name: 'RefreshToken',
  tableName: 'refresh_tokens',
  properties: {
    tokenHash: p.string().primary().columnType('text'),
    session: () => p.manyToOne(MemberSession).deleteRule('cascade').index(),
    expiresAt: p.datetime(3),
    usedAt: p.datetime(3).nullable(),
    /** The token whose spending issued this one; null for a sign-in's first token. */
    parentHash: p.string().columnType('text').nullable(),
    /** The user agent of the request that spent it: a second use within seconds must come from the same client. */
    usedUserAgent: p.string().columnType('text').nullable(),
    createdAt: p.datetime(3).onCreate(() => new Date()),
  },
});

export type RefreshToken = InferEntity<typeof RefreshToken>;

/**
 * Failed sign-ins per subject (`email:<address>`, `ip:<address>`) in a sliding window, and the
 * lock they lead to: shared by every API process, as the rate limits are.
 */
export const SignInThrottle = defineEntity({
  name: 'SignInThrottle',
  tableName: 'sign_in_throttles',
  properties: {
    subject: p.string().primary().columnType('text'),
    failures: p.integer(),
    windowStartedAt: p.datetime(3),
    lockedUntil: p.datetime(3).nullable(),
  },
});

export type SignInThrottle = InferEntity<typeof SignInThrottle>;
