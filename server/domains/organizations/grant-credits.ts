import type { EntityManager } from '@mikro-orm/postgresql';
import { Organization } from '../../entities/index.js';
import { notFound } from '../../errors.js';
import { roundCredits } from '../billing/serialize.js';
import { settleOwedCredits } from '../sessions/index.js';
import { bookCreditMovement, type BookedMovement } from './book-credit-movement.js';

export interface GrantCreditsInput {
  organizationId: string;
  amount: number;
  description?: string;
}

/** Operator grant (admin CLI); a negative amount is an adjustment and never overdraws. */
export async function grantCredits(em: EntityManager, input: GrantCreditsInput): Promise<BookedMovement> {
  return em.transactional(async (tx) => {
    const organization = await tx.findOne(Organization, { id: input.organizationId });
    if (!organization) throw notFound('organization', input.organizationId);
    const booked = await bookCreditMovement(tx, {
      organizationId: input.organizationId,
      amount: input.amount,
      kind: input.amount >= 0 ? 'grant' : 'adjustment',
      description: input.description ?? 'Granted by an operator',
    });
    if (input.amount <= 0) return booked;
    // Interview minutes owed are paid first from what was granted.
    const settled = await settleOwedCredits(tx, input.organizationId, booked.transactionId);
    return settled > 0 ? { ...booked, balance: roundCredits(booked.balance - settled) } : booked;
  });
}
