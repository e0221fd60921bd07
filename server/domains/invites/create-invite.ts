import type { EntityManager } from '@mikro-orm/postgresql';
import type { TCreateInviteInput, TInvite } from '../../../shared/schemas/invites.js';
import { type InviteServices, insertInvites, loadInviteCampaign } from './insert-invites.js';
import { toInviteDto } from './serialize.js';

/** `POST /v1/campaigns/{id}/invites`: two statements, the campaign read and the invite written with its email job. */
export async function createInvite(
  em: EntityManager,
  services: InviteServices,
  organizationId: string,
  input: TCreateInviteInput,
): Promise<TInvite> {
  const { campaign, owner } = await loadInviteCampaign(em, organizationId, input.campaignId);
  const [row] = await insertInvites(em, services, campaign, [input], input);
  return toInviteDto(row!, services, owner);
}
