import type { EntityManager } from '@mikro-orm/postgresql';
import type { TBulkCreateInvitesInput, TBulkCreateInvitesResult } from '../../../shared/schemas/invites.js';
import { loadLinkOwner } from '../organizations/load-link-owner.js';
import { type InviteServices, insertInvites, loadCampaignForInvites } from './insert-invites.js';
import { toInviteDto } from './serialize.js';

/** All or nothing: the request was validated as a whole before this runs, and inserts in one statement. */
export async function bulkCreateInvites(
  em: EntityManager,
  services: InviteServices,
  organizationId: string,
  input: TBulkCreateInvitesInput,
): Promise<TBulkCreateInvitesResult> {
  return em.transactional(async (tx) => {
    const campaign = await loadCampaignForInvites(tx, organizationId, input.campaignId);
    const rows = await insertInvites(tx, services, campaign, input.invites, input);
    const owner = await loadLinkOwner(tx, organizationId);
    return { data: rows.map((row) => toInviteDto(row, services, owner)), count: rows.length };
  });
}
