import type { TBulkCreateInvitesInput, TBulkCreateInvitesResult } from '../../../shared/schemas/invites.js';
import { type InviteServices, createCampaignInvites } from './insert-invites.js';
import { toInviteDto } from './serialize.js';
import type { Caller } from '../common/caller.js';
import type { Deps } from '../common/deps.js';

/** All or nothing: the request was validated as a whole before this runs, and inserts in one statement. */
export async function bulkCreateInvites(
  { em, services }: Pick<Deps, 'em'> & { services: InviteServices },
  caller: Caller,
  input: TBulkCreateInvitesInput,
): Promise<TBulkCreateInvitesResult> {
  // One statement: every invite and its email job, or none.
  const { rows, owner } = await createCampaignInvites(em, services, caller, input.campaignId, input.invites, input);
  return { data: rows.map((row) => toInviteDto(row, services, owner)), count: rows.length };
}
