import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { Organization } from './organization.js';

/**
 * Interview minutes an organization used per calendar month (UTC), and how many of them were
 * the plan's free minutes. Kept apart from the sessions, so deleting a campaign (and its
 * sessions) never gives free minutes back.
 */
export const BillingUsage = defineEntity({
  name: 'BillingUsage',
  tableName: 'billing_usage',
  properties: {
    organization: () => p.manyToOne(Organization).primary().deleteRule('cascade'),
    periodStart: p.datetime(0).primary(),
    minutes: p.integer().default(0),
    freeMinutesUsed: p.integer().default(0),
    sessions: p.integer().default(0),
  },
});

export type BillingUsage = InferEntity<typeof BillingUsage>;
