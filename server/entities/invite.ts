import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { EMAIL_STATUSES, INVITE_STATUSES } from '../../shared/schemas/invites.js';
import { timestampProperties } from './base.js';
import { Campaign } from './campaign.js';
import { Organization } from './organization.js';
import { ShareLink } from './share-link.js';

/**
 * One participant's invitation. The token is never stored: it is derived from the id with a
 * server key (see lib/invite-tokens.ts) so the API can show it again, and looked up by hash.
 * `status` is stored as pending/started even after `expiresAt` passes until the expiry job
 * flips it; readers use `effectiveInviteStatus`.
 */
export const Invite = defineEntity({
  name: 'Invite',
  tableName: 'invites',
  indexes: [{ properties: ['campaign', 'createdAt'] }, { properties: ['shareLink', 'startedAt'] }, { properties: ['status', 'expiresAt'] }],
  properties: {
    id: p.string().primary().columnType('text'),
    organization: () => p.manyToOne(Organization).deleteRule('cascade').index(),
    campaign: () => p.manyToOne(Campaign).deleteRule('cascade'),
    shareLink: () => p.manyToOne(ShareLink).nullable().deleteRule('set null'),
    /** SHA-256 (hex) of the participant token. */
    tokenHash: p.string().columnType('text').unique(),
    email: p.string().columnType('text').nullable(),
    name: p.string().columnType('text').nullable(),
    /** BCP 47 tag the interview is held in; null: the campaign's, else the script's. */
    language: p.string().columnType('text').nullable(),
    status: p.enum([...INVITE_STATUSES]).default('pending'),
    emailStatus: p.enum([...EMAIL_STATUSES]).default('not_sent'),
    emailTemplate: p.string().columnType('text').nullable(),
    /** Last delivery problem, for operators (never shown to participants). */
    emailError: p.string().columnType('text').nullable(),
    emailSentAt: p.datetime(3).nullable(),
    /**
     * When the current email was queued (create or resend). A send job acts only on the request
     * it was queued for: a resend during a send is a new request the old job must not overwrite.
     */
    emailQueuedAt: p.datetime(3).nullable(),
    expiresAt: p.datetime(3),
    /** A preview invite's script version (a draft included); null: the campaign's script's published version. */
    scriptVersion: p.integer().nullable(),
    metadata: p.json<Record<string, string | number | boolean>>(),
    startedAt: p.datetime(3).nullable(),
    completedAt: p.datetime(3).nullable(),
    cancelledAt: p.datetime(3).nullable(),
    ...timestampProperties,
  },
});

export type Invite = InferEntity<typeof Invite>;
