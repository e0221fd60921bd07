import type { EntityManager } from '@mikro-orm/postgresql';
import type { TCampaignResults, TCampaignResultsInput } from '../../../shared/schemas/campaign-results.js';

/**
 * PLACEHOLDER until the results branch lands (issue 31): the contract other branches build on.
 * A campaign's results for the sessions `input.filter` keeps; RESOURCE_NOT_FOUND for a campaign
 * of another organization or a preview campaign.
 */
export async function getCampaignResults(_em: EntityManager, _organizationId: string, _input: TCampaignResultsInput): Promise<TCampaignResults> {
  throw new Error('not built yet');
}
