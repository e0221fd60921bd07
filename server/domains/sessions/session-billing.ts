import type { EntityManager } from '@mikro-orm/postgresql';
import { isPlan, type Plan, PLANS } from '../../../shared/plans.js';
import type { Session, SessionBilling } from '../../entities/session.js';
import { AppError } from '../../errors.js';
import { billingPeriodOf, bookCreditMovement, roundCredits } from '../billing/index.js';
import { addOwedCredits, addSessionUsage, freeMinutesUsed, holdCredits, releaseHeldCredits, testInterviewsToday } from './queries.js';

/**
 * A session's start holds one billable minute at the plan's price, so an organization cannot run
 * more interviews than it can pay for: available = balance − held − owed. One conditional update, so
 * concurrent starts never hold more than the balance. 402 INSUFFICIENT_CREDITS otherwise.
 */
export async function holdStartingCredits(
  tx: EntityManager,
  { organizationId, plan, testModeInterviewsPerDay }: { organizationId: string; plan: Plan; testModeInterviewsPerDay: number },
): Promise<number> {
  const hold = PLANS[plan].pricePerMinuteCredits;
  const held = await holdCredits.first(tx, { organizationId, credits: hold });
  if (!held) {
    throw new AppError('INSUFFICIENT_CREDITS', 'Not enough credits to start an interview: one minute must be available.', { required: hold });
  }
  if (held.livemode) return hold;
  // A test world held nothing (test mode costs no credits), so its interviews are capped instead.
  // The update above locked its row: concurrent starts count one after another.
  const { started } = (await testInterviewsToday.first(tx, { organizationId }))!;
  if (started >= testModeInterviewsPerDay) {
    throw new AppError('TEST_MODE_INTERVIEW_LIMIT', `Test mode starts at most ${testModeInterviewsPerDay} interviews in 24 hours; delete test data or wait.`, {
      limit: testModeInterviewsPerDay,
    });
  }
  return 0;
}

/**
 * A finishing session's bill, inside its finishing transaction: releases the hold, then charges
 * `ceil(duration / 60)` minutes less the plan's free minutes left this month, at the plan's price.
 * The ledger row's source is the session, so the charge is booked once whatever retries; the
 * balance never goes below zero, and what it cannot cover is recorded as owed.
 */
export async function chargeSession(tx: EntityManager, session: Session, now: Date): Promise<SessionBilling> {
  // Billed already: the first bill stands. The ledger's unique source guards the charge, but not the debt.
  if (session.billing) return session.billing;
  // The organization row is locked first (by releasing the hold), so concurrent finishes read
  // each other's free minutes: billFinishedSession reads them in a statement of its own, after the lock.
  const organization = await releaseHeldCredits.first(tx, { organizationId: session.organization.id, credits: session.holdCredits });
  session.holdCredits = 0;
  return billFinishedSession(
    tx,
    { id: session.id, organizationId: session.organization.id, durationSeconds: session.durationSeconds },
    organization ?? null,
    now,
  );
}

/**
 * The bill of a finished session whose hold was just released, in the same transaction (the
 * release locked the organization's row and answered its plan and balance): `ceil(duration / 60)`
 * minutes less the plan's free minutes left this month, at the plan's price, booked and recorded
 * as owed where the balance cannot cover it. Both finishing paths end here: chargeSession, and
 * the closing answer written in one statement (answer-interview.ts).
 */
export async function billFinishedSession(
  tx: EntityManager,
  session: { id: string; organizationId: string; durationSeconds: number },
  organization: { plan: string; credit_balance: string; livemode: boolean } | null,
  now: Date,
): Promise<SessionBilling> {
  const plan = organization && isPlan(organization.plan) ? organization.plan : 'free';
  const terms = PLANS[plan];
  const totalMinutes = Math.ceil(session.durationSeconds / 60);
  // Test mode: a test world's interview costs nothing and uses none of the plan's free minutes
  // (nor does one whose organization is gone: its test data was deleted as it finished).
  if (!organization?.livemode) {
    return { totalMinutes, freeMinutesApplied: 0, billableMinutes: 0, amountCredits: 0, chargedCredits: 0, owedCredits: 0, plan, pricePerMinuteCredits: 0 };
  }
  const period = billingPeriodOf(now).start;
  const used = await freeMinutesUsed.first(tx, { organizationId: session.organizationId, periodStart: period });
  const freeLeft = Math.max(0, terms.freeMinutesPerMonth - Number(used?.free_minutes_used ?? 0));
  const freeMinutesApplied = Math.min(totalMinutes, freeLeft);
  await addSessionUsage.rows(tx, { organizationId: session.organizationId, periodStart: period, minutes: totalMinutes, freeMinutes: freeMinutesApplied });
  const billableMinutes = totalMinutes - freeMinutesApplied;
  const amountCredits = roundCredits(billableMinutes * terms.pricePerMinuteCredits);
  const chargedCredits = Math.min(amountCredits, Number(organization?.credit_balance ?? 0));
  const owedCredits = roundCredits(amountCredits - chargedCredits);
  if (chargedCredits > 0) {
    await bookCreditMovement(
      { em: tx },
      { organizationId: session.organizationId },
      {
        amount: -chargedCredits,
        kind: 'charge',
        source: `session:${session.id}`,
        description: `Interview ${session.id}: ${billableMinutes} billable minute(s) of ${totalMinutes}`,
      },
    );
  }
  if (owedCredits > 0) {
    await addOwedCredits.rows(tx, { organizationId: session.organizationId, credits: owedCredits });
  }
  return {
    totalMinutes,
    freeMinutesApplied,
    billableMinutes,
    amountCredits,
    chargedCredits,
    owedCredits,
    plan,
    pricePerMinuteCredits: terms.pricePerMinuteCredits,
  };
}
