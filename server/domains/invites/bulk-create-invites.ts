import type { EntityManager } from '@mikro-orm/postgresql';
import type { TBulkCreateInvitesInput, TBulkCreateInvitesResult } from '../../../shared/schemas/invites.js';
import { type InviteServices, insertInvites, loadInviteCampaign } from './insert-invites.js';
import { toInviteDto } from './serialize.js';

/** All or nothing: the request was validated as a whole before this runs, and inserts in one statement. */
export async function bulkCreateInvites(
  em: EntityManager,
  services: InviteServices,
  organizationId: string,
  input: TBulkCreateInvitesInput,
): Promise<TBulkCreateInvitesResult> {
  const { campaign, owner } = await loadInviteCampaign(em, organizationId, input.campaignId);
  // One statement: every invite and its email job, or none.
  const rows = await insertInvites(em, services, campaign, input.invites, input);
  return { data: rows.map((row) => toInviteDto(row, services, owner)), count: rows.length };
}
