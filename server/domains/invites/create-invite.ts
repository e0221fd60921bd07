import type { TCreateInviteInput, TInvite } from '../../../shared/schemas/invites.js';
import { type InviteServices, insertInvites, loadInviteCampaign } from './insert-invites.js';
import { toInviteDto } from './serialize.js';
import type { Caller } from '../common/caller.js';
import type { Deps } from '../common/deps.js';

/** `POST /v1/campaigns/{id}/invites`: two statements, the campaign read and the invite written with its email job. */
export async function createInvite(
  { em, services }: Pick<Deps, 'em'> & { services: InviteServices },
  caller: Caller,
  input: TCreateInviteInput,
): Promise<TInvite> {
  const { campaign, owner } = await loadInviteCampaign(em, caller, { campaignId: input.campaignId });
  const [row] = await insertInvites(em, services, campaign, [input], input);
  return toInviteDto(row!, services, owner);
}
