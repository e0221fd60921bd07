import { MAX_CUSTOM_RATE_LIMIT_PER_MINUTE, type Plan, rateLimitFor } from '../../../shared/plans.js';
import { isTestWorld, Organization } from '../../entities/index.js';
import { notFound, validationError } from '../../errors.js';
import type { Caller } from '../common/caller.js';
import type { Deps } from '../common/deps.js';
import { mirrorLiveOrganization } from './test-organization.js';

export interface SetPlanInput {
  plan: Plan;
  /** Enterprise only: custom per-key requests per minute (1 to 10,000). */
  rateLimitPerMinute?: number;
}

/** The admin CLI's plan change for the caller's organization. */
export async function setPlan(
  { em }: Pick<Deps, 'em'>,
  caller: Caller,
  input: SetPlanInput,
): Promise<{ organization: Organization; rateLimitPerMinute: number }> {
  if (input.rateLimitPerMinute !== undefined) {
    if (input.plan !== 'enterprise') {
      throw validationError([{ path: 'rateLimitPerMinute', message: 'a custom rate limit needs the enterprise plan' }]);
    }
    if (!Number.isInteger(input.rateLimitPerMinute) || input.rateLimitPerMinute < 1 || input.rateLimitPerMinute > MAX_CUSTOM_RATE_LIMIT_PER_MINUTE) {
      throw validationError([{ path: 'rateLimitPerMinute', message: `must be an integer from 1 to ${MAX_CUSTOM_RATE_LIMIT_PER_MINUTE}` }]);
    }
  }
  const organization = await em.findOne(Organization, { id: caller.organizationId });
  if (!organization) throw notFound('organization', caller.organizationId);
  organization.plan = input.plan;
  organization.rateLimitPerMinute = input.plan === 'enterprise' ? (input.rateLimitPerMinute ?? organization.rateLimitPerMinute) : null;
  await em.flush();
  if (!isTestWorld(organization)) await mirrorLiveOrganization(em, { liveOrganizationId: organization.id });
  return { organization, rateLimitPerMinute: rateLimitFor(organization.plan, organization.rateLimitPerMinute ?? null) };
}
