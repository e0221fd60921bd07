import { Organization } from '../../entities/index.js';
import { notFound } from '../../errors.js';
import { type BookedMovement, bookCreditMovement, roundCredits, settleOwedCredits } from '../billing/index.js';
import type { Caller } from '../common/caller.js';
import type { Deps } from '../common/deps.js';

export interface GrantCreditsInput {
  amount: number;
  description?: string;
}

/** Operator grant (admin CLI) to the caller's organization; a negative amount is an adjustment and never overdraws. */
export async function grantCredits({ em }: Pick<Deps, 'em'>, caller: Caller, input: GrantCreditsInput): Promise<BookedMovement> {
  const { organizationId } = caller;
  return em.transactional(async (tx) => {
    const organization = await tx.findOne(Organization, { id: organizationId });
    if (!organization) throw notFound('organization', organizationId);
    const booked = await bookCreditMovement({ em: tx }, caller, {
      amount: input.amount,
      kind: input.amount >= 0 ? 'grant' : 'adjustment',
      description: input.description ?? 'Granted by an operator',
    });
    if (input.amount <= 0) return booked;
    // Interview minutes owed are paid first from what was granted.
    const settled = await settleOwedCredits({ em: tx }, caller, { reference: booked.transactionId });
    return settled > 0 ? { ...booked, balance: roundCredits(booked.balance - settled) } : booked;
  });
}
