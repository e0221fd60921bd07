import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError } from '../../errors.js';
import { newId } from '../../lib/ids.js';

export interface CreditMovement {
  organizationId: string;
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
 * The only way credits change. The ledger row is inserted first (its unique source makes a
 * retried charge a no-op), then the balance moves with a conditional update that can never take
 * it below zero, even under concurrent charges. Must run inside a transaction.
 */
export async function bookCreditMovement(em: EntityManager, movement: CreditMovement): Promise<BookedMovement> {
  const transactionId = newId('txn');
  const inserted = await em.execute<{ id: string }[]>(
    `insert into credit_transactions (id, organization_id, kind, amount, balance_after, source, description, created_at)
     values (?, ?, ?, ?, 0, ?, ?, now())
     on conflict (organization_id, source) do nothing
     returning id`,
    [transactionId, movement.organizationId, movement.kind, movement.amount, movement.source ?? null, movement.description ?? null],
  );
  if (inserted.length === 0) {
    const [existing] = await em.execute<{ id: string; balance: string }[]>(
      `select t.id, o.credit_balance as balance from credit_transactions t join organizations o on o.id = t.organization_id
       where t.organization_id = ? and t.source = ?`,
      [movement.organizationId, movement.source ?? null],
    );
    return { transactionId: existing!.id, balance: Number(existing!.balance), duplicate: true };
  }
  const updated = await em.execute<{ credit_balance: string }[]>(
    `update organizations set credit_balance = credit_balance + ?, updated_at = now()
     where id = ? and credit_balance + ? >= 0
     returning credit_balance`,
    [movement.amount, movement.organizationId, movement.amount],
  );
  if (updated.length === 0) {
    throw new AppError('INSUFFICIENT_CREDITS', 'Not enough credits for this action.', { required: -movement.amount });
  }
  const balance = Number(updated[0]!.credit_balance);
  await em.execute(`update credit_transactions set balance_after = ? where id = ?`, [balance, transactionId]);
  return { transactionId, balance, duplicate: false };
}
