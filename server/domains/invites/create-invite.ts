import type { EntityManager } from '@mikro-orm/postgresql';
import type { TCreateInviteInput, TInvite } from '../../../shared/schemas/invites.js';
import { loadLinkOwner } from '../organizations/load-link-owner.js';
import { type InviteServices, insertInvites, loadCampaignForInvites } from './insert-invites.js';
import { toInviteDto } from './serialize.js';

export async function createInvite(
  em: EntityManager,
  services: InviteServices,
  organizationId: string,
  input: TCreateInviteInput,
): Promise<TInvite> {
  return em.transactional(async (tx) => {
    const campaign = await loadCampaignForInvites(tx, organizationId, input.campaignId);
    const [row] = await insertInvites(tx, services, campaign, [input], input);
    return toInviteDto(row!, services, await loadLinkOwner(tx, organizationId));
  });
}
