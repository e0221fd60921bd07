import type { OrganizationScope } from '../common/caller.js';
import type { Deps } from '../common/deps.js';
import { bookCreditMovement } from './book-credit-movement.js';
import { lockOrganizationCredits, reduceCreditsOwed } from './queries.js';
import { roundCredits } from './serialize.js';

/**
 * Credits added to an organization that owes minutes (a session cost more than its balance) go
 * to the debt first, as a charge on the ledger, inside the caller's transaction. `reference` names
 * the top-up (its ledger transaction), so the settlement is booked once.
 */
export async function settleOwedCredits({ em }: Pick<Deps, 'em'>, scope: OrganizationScope, input: { reference: string }): Promise<number> {
  const { organizationId } = scope;
  const organization = await lockOrganizationCredits.first(em, { organizationId });
  const settled = roundCredits(Math.min(Number(organization?.credits_owed ?? 0), Number(organization?.credit_balance ?? 0)));
  if (settled <= 0) return 0;
  await bookCreditMovement({ em }, scope, {
    amount: -settled,
    kind: 'charge',
    source: `debt:${input.reference}`,
    description: 'Interview minutes owed, settled from new credits',
  });
  await reduceCreditsOwed.rows(em, { organizationId, credits: settled });
  return settled;
}
