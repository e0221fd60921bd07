import type { EntityManager } from '@mikro-orm/postgresql';
import { isPlan, PLANS } from '../../../shared/plans.js';
import { bookCreditMovement } from '../organizations/book-credit-movement.js';
import { type BillingPeriod, billingPeriodOf, periodLabel } from './billing-period.js';
import { issueInvoice } from './issue-invoice.js';
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
 * so even a claim taken twice could not book twice.
 */
export async function rollOverBillingPeriods(em: EntityManager, now = new Date()): Promise<RolloverResult> {
  const current = billingPeriodOf(now);
  const result: RolloverResult = { organizations: 0, invoices: 0 };
  for (;;) {
    const batch = await em.execute<{ id: string }[]>(
      `select id from organizations where current_period_start < ? order by id limit ?`,
      [current.start, BATCH_SIZE],
    );
    if (batch.length === 0) return result;
    for (const { id } of batch) {
      const outcome = await rollOverOrganization(em, id, current, now);
      if (outcome.rolled) result.organizations += 1;
      if (outcome.invoiced) result.invoices += 1;
    }
  }
}

async function rollOverOrganization(em: EntityManager, organizationId: string, current: BillingPeriod, now: Date): Promise<{ rolled: boolean; invoiced: boolean }> {
  return em.fork().transactional(async (tx) => {
    const [claimed] = await tx.execute<{ plan: string; previous_start: Date; credits_owed: string }[]>(
      `update organizations o set current_period_start = ?, updated_at = now()
       from (select id, current_period_start from organizations where id = ? for no key update) as before
       where o.id = before.id and before.current_period_start < ?
       returning o.plan, before.current_period_start as previous_start, o.credits_owed`,
      [current.start, organizationId, current.start],
    );
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
        lines: [{ description: `Interview minutes beyond the credit balance (${owed} credits)`, quantity: owed, unitAmount: terms.pricePerCreditMinor, amount: priceOfCredits(owed, terms.pricePerCreditMinor) }],
        issuedAt: now,
        paymentId: null,
        source: `period:${periodLabel(ended)}`,
      });
      // Invoiced now: the debt no longer holds back new interviews' credits.
      await tx.execute(`update organizations set credits_owed = credits_owed - ? where id = ?`, [owed, organizationId]);
      invoiced = true;
    }
    if (terms.includedCredits > 0) {
      await bookCreditMovement(tx, {
        organizationId,
        amount: terms.includedCredits,
        kind: 'plan_included',
        source: `period:${periodLabel(current)}`,
        description: `Included credits of the ${plan} plan for ${periodLabel(current)}`,
      });
    }
    return { rolled: true, invoiced };
  });
}
