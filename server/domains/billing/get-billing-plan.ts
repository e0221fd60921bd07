import type { EntityManager } from '@mikro-orm/postgresql';
import { type Plan, PLANS, rateLimitFor } from '../../../shared/plans.js';
import type { TBillingPlan } from '../../../shared/schemas/billing.js';
import { Organization } from '../../entities/index.js';
import { notFound } from '../../errors.js';
import { billingPeriodOf } from './billing-period.js';
import { priceOfCredits, roundCredits } from './serialize.js';

/**
 * `GET /v1/billing/plan`: the plan and this period's figures, all from the ledger and the usage
 * table in one round trip: included, purchased and used are the period's ledger rows by kind.
 */
export async function getBillingPlan(em: EntityManager, organizationId: string, now = new Date()): Promise<TBillingPlan> {
  const organization = await em.findOne(Organization, { id: organizationId });
  if (!organization) throw notFound('organization', organizationId);
  const period = billingPeriodOf(now);
  const [figures] = await em.execute<{ included: string; purchased: string; used: string; free_minutes_used: number; open_invoices: string }[]>(
    `select
       coalesce((select sum(amount) from credit_transactions where organization_id = ? and kind = 'plan_included' and created_at >= ? and created_at < ?), 0) as included,
       coalesce((select sum(amount) from credit_transactions where organization_id = ? and kind = 'purchase' and created_at >= ? and created_at < ?), 0) as purchased,
       coalesce((select -sum(amount) from credit_transactions where organization_id = ? and kind = 'charge' and created_at >= ? and created_at < ?), 0) as used,
       coalesce((select free_minutes_used from billing_usage where organization_id = ? and period_start = ?), 0) as free_minutes_used,
       (select count(*) from invoices where organization_id = ? and status = 'open') as open_invoices`,
    [organizationId, period.start, period.end, organizationId, period.start, period.end, organizationId, period.start, period.end, organizationId, period.start, organizationId],
  );
  const plan: Plan = organization.plan;
  const terms = PLANS[plan];
  const owed = roundCredits(Number(organization.creditsOwed));
  return {
    plan,
    status: Number(figures?.open_invoices ?? 0) > 0 ? 'past_due' : 'active',
    credits: {
      balance: roundCredits(Number(organization.creditBalance)),
      included: roundCredits(Number(figures?.included ?? 0)),
      purchased: roundCredits(Number(figures?.purchased ?? 0)),
      used: roundCredits(Number(figures?.used ?? 0)),
      owed,
    },
    billingPeriod: { start: period.start.toISOString(), end: period.end.toISOString() },
    nextInvoice: { date: period.end.toISOString(), amount: priceOfCredits(owed, terms.pricePerCreditMinor), currency: terms.currency },
    freeMinutes: { included: terms.freeMinutesPerMonth, used: Number(figures?.free_minutes_used ?? 0) },
    pricing: {
      pricePerMinuteCredits: terms.pricePerMinuteCredits,
      pricePerCreditMinor: terms.pricePerCreditMinor,
      currency: terms.currency,
      rateLimitPerMinute: rateLimitFor(plan, organization.rateLimitPerMinute ?? null),
    },
  };
}
