import type { EntityManager } from '@mikro-orm/postgresql';
import { PLANS, type Plan } from '../../../shared/plans.js';
import { Organization } from '../../entities/index.js';
import { newId } from '../../lib/ids.js';
import { billingPeriodOf } from '../billing/billing-period.js';
import { bookCreditMovement } from './book-credit-movement.js';

export interface CreateOrganizationInput {
  name: string;
  plan?: Plan;
  /** Starting balance; defaults to the plan's included credits. */
  credits?: number;
}

export async function createOrganization(em: EntityManager, input: CreateOrganizationInput): Promise<Organization> {
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
      await bookCreditMovement(tx, {
        organizationId: organization.id,
        amount: credits,
        kind: input.credits === undefined ? 'plan_included' : 'grant',
        source: 'organization_created',
        description: input.credits === undefined ? `Included credits of the ${plan} plan` : 'Initial credits',
      });
      await tx.refresh(organization);
    }
    return organization;
  });
}
