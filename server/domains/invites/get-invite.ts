import type { EntityManager } from '@mikro-orm/postgresql';
import type { TInvite } from '../../../shared/schemas/invites.js';
import { loadInvite } from './load-invite.js';
import { type InviteLinkServices, toInviteDto } from './serialize.js';
import { loadLinkOwner } from '../organizations/index.js';

export async function getInvite(em: EntityManager, services: InviteLinkServices, organizationId: string, inviteId: string): Promise<TInvite> {
  const invite = await loadInvite(em, organizationId, inviteId);
  return toInviteDto(invite, services, await loadLinkOwner(em, { organizationId }));
}
