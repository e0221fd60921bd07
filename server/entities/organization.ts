import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { PLAN_NAMES } from '../../shared/plans.js';
import type { TOrganizationSettings } from '../../shared/schemas/organization.js';
import { timestampProperties } from './base.js';

export const Organization = defineEntity({
  name: 'Organization',
  tableName: 'organizations',
  checks: [
    { name: 'organizations_credit_balance_nonnegative', expression: 'credit_balance >= 0' },
    { name: 'organizations_credits_held_nonnegative', expression: 'credits_held >= 0' },
  ],
  properties: {
    id: p.string().primary().columnType('text'),
    name: p.string().columnType('text'),
    plan: p.enum(PLAN_NAMES).default('free'),
    /** Enterprise contracts only: overrides the plan's per-key requests per minute. */
    rateLimitPerMinute: p.integer().nullable(),
    creditBalance: p.decimal('number').precision(14).scale(4).default(0),
    /** Credits held by sessions in progress (one minute each): available = balance − held. */
    creditsHeld: p.decimal('number').precision(14).scale(4).default(0),
    /** What finished sessions cost beyond the balance: the balance never goes negative, the rest is owed. */
    creditsOwed: p.decimal('number').precision(14).scale(4).default(0),
    logo: p.string().columnType('text').nullable(),
    domain: p.string().columnType('text').nullable().unique(),
    settings: p.json<TOrganizationSettings>().default('{}'),
    /** Start of the billing period (a calendar month, UTC) whose included credits were booked last. */
    currentPeriodStart: p.datetime(3),
    /** The organization's customer at the payment provider (Stripe `cus_…`), whose default method pays purchases. */
    paymentCustomerId: p.string().columnType('text').nullable(),
    /** Set on a test world only (`isk_test_` keys): the live organization it is the test world of. Null: a live organization. */
    liveOrganization: () => p.manyToOne(Organization).nullable().unique().deleteRule('cascade'),
    ...timestampProperties,
  },
});

export type Organization = InferEntity<typeof Organization>;

/** Test mode: whether this organization is the test world of a live one (its `isk_test_` keys act here). */
export function isTestWorld(organization: Pick<Organization, 'liveOrganization'>): boolean {
  return organization.liveOrganization !== null && organization.liveOrganization !== undefined;
}
