import type { FilterQuery } from '@mikro-orm/core';
import type { Page } from '../../../shared/schemas/common.js';
import type { TInvite, TInviteStatus, TListInvitesInput } from '../../../shared/schemas/invites.js';
import { Invite } from '../../entities/index.js';
import { loadCampaign } from '../campaigns/index.js';
import { findPage, pageFrom } from '../common/keyset-page.js';
import { type InviteLinkServices, toInviteDto } from './serialize.js';
import { loadLinkOwner } from '../organizations/index.js';
import type { Caller } from '../common/caller.js';
import type { Deps } from '../common/deps.js';

/** The filter for a status as readers see it (see effectiveInviteStatus): expiry counts before the job writes it. */
export function inviteStatusFilter(status: TInviteStatus, now: Date): FilterQuery<Invite> {
  switch (status) {
    case 'pending':
    case 'started':
      return { status, expiresAt: { $gt: now } };
    case 'expired':
      return { $or: [{ status: 'expired' }, { status: { $in: ['pending', 'started'] }, expiresAt: { $lte: now } }] };
    default:
      return { status };
  }
}

/** Exact, case-insensitive match: the caller's text is literal (`%` and `_` included). */
function exactPattern(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}

export async function listInvites(
  { em, services }: Pick<Deps, 'em'> & { services: InviteLinkServices },
  caller: Caller,
  input: TListInvitesInput,
): Promise<Page<TInvite>> {
  const { organizationId } = caller;
  await loadCampaign(em, caller, { campaignId: input.campaignId });
  const now = new Date();
  const where: FilterQuery<Invite> = {
    $and: [
      { campaign: input.campaignId, organization: organizationId },
      input.status ? inviteStatusFilter(input.status, now) : {},
      input.email ? { email: { $ilike: exactPattern(input.email) } } : {},
      input.shareLinkId ? { shareLink: input.shareLinkId } : {},
    ],
  };
  const page = await findPage(em, Invite, where, input, undefined, { disableIdentityMap: true });
  const owner = await loadLinkOwner(em, caller);
  return pageFrom(
    page,
    page.items.map((invite) => toInviteDto(invite, services, owner, now)),
  );
}
