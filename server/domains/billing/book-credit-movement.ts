import { AppError } from '../../errors.js';
import { newId } from '../../lib/ids.js';
import type { OrganizationScope } from '../common/caller.js';
import type { Deps } from '../common/deps.js';
import { type CreditsLowFacts, publishEvent } from '../webhooks/index.js';
import { roundCredits } from './serialize.js';
import { bookedCreditTransaction, insertCreditTransaction, moveCreditBalance, setCreditTransactionBalance } from './queries.js';

export interface CreditMovement {
  /** Positive adds credits, negative spends them. */
  amount: number;
  kind: 'plan_included' | 'grant' | 'purchase' | 'charge' | 'adjustment';
  /** Idempotency: one movement per (organization, source); a repeat is ignored. */
  source?: string | null;
  description?: string | null;
}

export interface BookedMovement {
  transactionId: string;
  balance: number;
  duplicate: boolean;
}

/**
 * The only way credits change, for the scope's organization. The ledger row is inserted first (its
 * unique source makes a retried charge a no-op), then the balance moves with a conditional update
 * that can never take it below zero, even under concurrent charges. Must run inside a transaction.
 */
export async function bookCreditMovement({ em }: Pick<Deps, 'em'>, scope: OrganizationScope, movement: CreditMovement): Promise<BookedMovement> {
  const { organizationId } = scope;
  const transactionId = newId('txn');
  const source = movement.source ?? null;
  const inserted = await insertCreditTransaction.rows(em, {
    id: transactionId,
    organizationId,
    kind: movement.kind,
    amount: movement.amount,
    source,
    description: movement.description ?? null,
  });
  if (inserted.length === 0) {
    const existing = await bookedCreditTransaction.first(em, { organizationId, source });
    return { transactionId: existing!.id, balance: Number(existing!.balance), duplicate: true };
  }
  const updated = await moveCreditBalance.first(em, { organizationId, amount: movement.amount });
  if (!updated) {
    throw new AppError('INSUFFICIENT_CREDITS', 'Not enough credits for this action.', { required: -movement.amount });
  }
  const balance = Number(updated.credit_balance);
  await setCreditTransactionBalance.rows(em, { transactionId, balance });
  // Crossing the alert threshold downwards, once per crossing: a balance already below it stays quiet until a top-up lifts it again.
  const threshold = updated.credits_low_threshold === null ? null : Number(updated.credits_low_threshold);
  const before = roundCredits(balance - movement.amount);
  if (threshold !== null && movement.amount < 0 && before >= threshold && balance < threshold) {
    await publishEvent({ em }, scope, {
      type: 'credits.low',
      sessionId: null,
      facts: { organizationId, balance: roundCredits(balance), threshold, transactionId } satisfies CreditsLowFacts,
      occurredAt: new Date(),
    });
  }
  return { transactionId, balance, duplicate: false };
}
