import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { STAKEHOLDER_LINK_KINDS } from '../../shared/schemas/stakeholder-links.js';
import { Organization } from './organization.js';

/**
 * A read-only share of a campaign's results, a collection or a session (`/shared/{token}`). The
 * target is named by kind and id (no foreign key: a deleted target leaves the link, which then
 * answers 410). Only the SHA-256 of the token is kept; the URL is shown once, when created.
 */
export const StakeholderLink = defineEntity({
  name: 'StakeholderLink',
  tableName: 'stakeholder_links',
  indexes: [{ properties: ['organization', 'createdAt'] }, { properties: ['organization', 'kind', 'targetId'] }],
  properties: {
    id: p.string().primary().columnType('text'),
    organization: () => p.manyToOne(Organization).deleteRule('cascade'),
    kind: p.enum([...STAKEHOLDER_LINK_KINDS]),
    targetId: p.string().columnType('text'),
    includeTranscripts: p.boolean(),
    redactPii: p.boolean(),
    /** SHA-256 of the token (hex); the token itself is never stored. */
    tokenHash: p.string().columnType('text').unique(),
    expiresAt: p.datetime(3),
    revokedAt: p.datetime(3).nullable(),
    /** Who made it (a member or an API key) and their name then, as the workspace records authors. */
    createdByKind: p.enum(['member', 'api_key'] as const),
    createdById: p.string().columnType('text'),
    createdByName: p.string().columnType('text'),
    createdAt: p.datetime(3),
    openCount: p.integer().default(0),
    lastOpenedAt: p.datetime(3).nullable(),
  },
});

export type StakeholderLink = InferEntity<typeof StakeholderLink>;

/**
 * One read of a link's content: when, and nothing about the reader (no address, no browser), as
 * the participant pages keep nothing about their visitors either.
 */
export const StakeholderLinkOpen = defineEntity({
  name: 'StakeholderLinkOpen',
  tableName: 'stakeholder_link_opens',
  indexes: [{ properties: ['link', 'openedAt'] }],
  properties: {
    id: p.bigint('string').primary().autoincrement(),
    link: () => p.manyToOne(StakeholderLink).deleteRule('cascade'),
    openedAt: p.datetime(3),
  },
});

export type StakeholderLinkOpen = InferEntity<typeof StakeholderLinkOpen>;
