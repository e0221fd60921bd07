import type { TCreateInviteInput, TInvite } from '../../../shared/schemas/invites.js';
import { type InviteServices, createCampaignInvites } from './insert-invites.js';
import { toInviteDto } from './serialize.js';
import type { Caller } from '../common/caller.js';
import type { Deps } from '../common/deps.js';

/** `POST /v1/campaigns/{id}/invites`: the invite written with its email job, in one statement when its campaign's defaults are remembered. */
export async function createInvite(
  { em, services }: Pick<Deps, 'em'> & { services: InviteServices },
  caller: Caller,
  input: TCreateInviteInput,
): Promise<TInvite> {
  const { rows, owner } = await createCampaignInvites(em, services, caller, input.campaignId, [input], input);
  const [row] = rows;
  return toInviteDto(row!, services, owner);
}
