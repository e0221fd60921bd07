import type { TInvite } from '../../../shared/schemas/invites.js';
import { loadInvite } from './load-invite.js';
import { type InviteLinkServices, toInviteDto } from './serialize.js';
import { loadLinkOwner } from '../organizations/index.js';
import type { Caller } from '../common/caller.js';
import type { Deps } from '../common/deps.js';

export async function getInvite(
  { em, services }: Pick<Deps, 'em'> & { services: InviteLinkServices },
  caller: Caller,
  input: { inviteId: string },
): Promise<TInvite> {
  const invite = await loadInvite(em, caller, input);
  return toInviteDto(invite, services, await loadLinkOwner(em, caller));
}
