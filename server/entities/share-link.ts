import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { timestampProperties } from './base.js';
import { Campaign } from './campaign.js';
import { Organization } from './organization.js';

/** A public `/join/{code}` link: each visit creates an anonymous invite for its campaign. */
export const ShareLink = defineEntity({
  name: 'ShareLink',
  tableName: 'share_links',
  indexes: [{ properties: ['campaign', 'createdAt'] }],
  properties: {
    id: p.string().primary().columnType('text'),
    organization: () => p.manyToOne(Organization).deleteRule('cascade').index(),
    campaign: () => p.manyToOne(Campaign).deleteRule('cascade'),
    /** The secret part of the URL; random, not derived from the id. */
    code: p.string().columnType('text').unique(),
    maxRespondents: p.integer().nullable(),
    expiresAt: p.datetime(3).nullable(),
    closedAt: p.datetime(3).nullable(),
    ...timestampProperties,
  },
});

export type ShareLink = InferEntity<typeof ShareLink>;
