import { PLANS, type Plan } from '../../../shared/plans.js';
import { Organization } from '../../entities/index.js';
import { newId } from '../../lib/ids.js';
import { billingPeriodOf, bookCreditMovement } from '../billing/index.js';
import type { Deps } from '../common/deps.js';

export interface CreateOrganizationInput {
  name: string;
  plan?: Plan;
  /** Starting balance; defaults to the plan's included credits. */
  credits?: number;
}

/**
 * The admin CLI's (and the tests' and benches') way to a new organization. It takes no caller:
 * every caller acts for an organization, and this one does not exist yet.
 */
export async function createOrganization({ em }: Pick<Deps, 'em'>, input: CreateOrganizationInput): Promise<Organization> {
  const plan = input.plan ?? 'free';
  const credits = input.credits ?? PLANS[plan].includedCredits;
  return em.transactional(async (tx) => {
    const organization = tx.create(Organization, {
      id: newId('org'),
      name: input.name,
      plan,
      rateLimitPerMinute: null,
      creditBalance: 0,
      logo: null,
      domain: null,
      settings: {},
      currentPeriodStart: billingPeriodOf(new Date()).start,
      paymentCustomerId: null,
    });
    await tx.flush();
    if (credits > 0) {
      await bookCreditMovement(
        { em: tx },
        { organizationId: organization.id },
        {
          amount: credits,
          kind: input.credits === undefined ? 'plan_included' : 'grant',
          source: 'organization_created',
          description: input.credits === undefined ? `Included credits of the ${plan} plan` : 'Initial credits',
        },
      );
      await tx.refresh(organization);
    }
    return organization;
  });
}
