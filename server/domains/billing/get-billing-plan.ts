import { type Plan, PLANS, rateLimitFor } from '../../../shared/plans.js';
import type { TBillingPlan } from '../../../shared/schemas/billing.js';
import { Organization } from '../../entities/index.js';
import { notFound } from '../../errors.js';
import type { Caller } from '../common/caller.js';
import type { Deps } from '../common/deps.js';
import { billingPeriodOf } from './billing-period.js';
import { billingPlanFigures } from './queries.js';
import { priceOfCredits, roundCredits } from './serialize.js';

/**
 * `GET /v1/billing/plan`: the plan and this period's figures, all from the ledger and the usage
 * table in one round trip: included, purchased and used are the period's ledger rows by kind.
 */
export async function getBillingPlan({ em }: Pick<Deps, 'em'>, caller: Caller, input: { now?: Date } = {}): Promise<TBillingPlan> {
  const { organizationId } = caller;
  const organization = await em.findOne(Organization, { id: organizationId });
  if (!organization) throw notFound('organization', organizationId);
  const period = billingPeriodOf(input.now ?? new Date());
  const figures = await billingPlanFigures.first(em, { organizationId, start: period.start, end: period.end });
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
