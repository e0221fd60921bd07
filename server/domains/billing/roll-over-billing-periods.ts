import type { EntityManager } from '@mikro-orm/postgresql';
import { isPlan, PLANS } from '../../../shared/plans.js';
import { systemCaller } from '../common/caller.js';
import type { Deps } from '../common/deps.js';
import { type BillingPeriod, billingPeriodOf, periodLabel } from './billing-period.js';
import { bookCreditMovement } from './book-credit-movement.js';
import { issueInvoice } from './issue-invoice.js';
import { claimRollover, clearInvoicedDebt, organizationsToRollOver } from './queries.js';
import { priceOfCredits, roundCredits } from './serialize.js';

/** Organizations rolled over per transaction: short transactions, bounded memory. */
const BATCH_SIZE = 100;

export interface RolloverResult {
  organizations: number;
  invoices: number;
}

/**
 * The `billing__roll_over_periods` job (hourly): every organization still in an earlier period is
 * moved to the current one. Per organization, in one transaction: a conditional update claims the
 * rollover (of two workers, exactly one gets each organization), the minutes owed become an open
 * invoice for the period that ended, and the plan's included credits for the new period are
 * booked. Unused included credits roll over. Ledger and invoice rows are unique per period too,
 * so even a claim taken twice could not book twice. It acts for every organization, so it takes no
 * caller; each organization's rollover acts as the system for that organization.
 */
export async function rollOverBillingPeriods({ em }: Pick<Deps, 'em'>, input: { now?: Date } = {}): Promise<RolloverResult> {
  const now = input.now ?? new Date();
  const current = billingPeriodOf(now);
  const result: RolloverResult = { organizations: 0, invoices: 0 };
  for (;;) {
    const batch = await organizationsToRollOver.rows(em, { periodStart: current.start, limit: BATCH_SIZE });
    if (batch.length === 0) return result;
    for (const { id } of batch) {
      const outcome = await rollOverOrganization(em, { organizationId: id, current, now });
      if (outcome.rolled) result.organizations += 1;
      if (outcome.invoiced) result.invoices += 1;
    }
  }
}

async function rollOverOrganization(
  em: EntityManager,
  { organizationId, current, now }: { organizationId: string; current: BillingPeriod; now: Date },
): Promise<{ rolled: boolean; invoiced: boolean }> {
  return em.fork().transactional(async (tx) => {
    const claimed = await claimRollover.first(tx, { organizationId, periodStart: current.start });
    if (!claimed) return { rolled: false, invoiced: false };
    const plan = isPlan(claimed.plan) ? claimed.plan : 'free';
    const terms = PLANS[plan];
    // The invoice covers the period that just ended (the one before `current`).
    const ended = billingPeriodOf(new Date(current.start.getTime() - 1));
    const owed = roundCredits(Number(claimed.credits_owed));
    let invoiced = false;
    if (owed > 0) {
      await issueInvoice(tx, {
        organizationId,
        kind: 'usage',
        status: 'open',
        currency: terms.currency,
        period: ended,
        lines: [
          {
            description: `Interview minutes beyond the credit balance (${owed} credits)`,
            quantity: owed,
            unitAmount: terms.pricePerCreditMinor,
            amount: priceOfCredits(owed, terms.pricePerCreditMinor),
          },
        ],
        issuedAt: now,
        paymentId: null,
        source: `period:${periodLabel(ended)}`,
      });
      // Invoiced now: the debt no longer holds back new interviews' credits.
      await clearInvoicedDebt.rows(tx, { organizationId, credits: owed });
      invoiced = true;
    }
    // A test world's interviews cost nothing (test mode): it needs no included credits.
    if (claimed.livemode && terms.includedCredits > 0) {
      await bookCreditMovement({ em: tx }, systemCaller(organizationId), {
        amount: terms.includedCredits,
        kind: 'plan_included',
        source: `period:${periodLabel(current)}`,
        description: `Included credits of the ${plan} plan for ${periodLabel(current)}`,
      });
    }
    return { rolled: true, invoiced };
  });
}
