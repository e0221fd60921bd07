import type { FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RowOf } from '../../db/query.js';
import { notFound } from '../../errors.js';
import type { Page } from '../../../shared/schemas/common.js';
import type { TInvite, TInviteStatus, TListInvitesInput } from '../../../shared/schemas/invites.js';
import { Invite } from '../../entities/index.js';
import { loadCampaign } from '../campaigns/index.js';
import { cursorAfter, findPage, pageFrom } from '../common/keyset-page.js';
import { type InviteLinkServices, type InviteView, toInviteDto } from './serialize.js';
import { invitePage } from './queries.js';
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
  // The common page (by offset) is one statement on the read path; cursor pages take the keyset below.
  if (input.startingAfter === undefined) return listInviteRows(em, services, caller, input);
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

async function listInviteRows(em: EntityManager, services: InviteLinkServices, caller: Caller, input: TListInvitesInput): Promise<Page<TInvite>> {
  const now = new Date();
  const rows = await invitePage.rows(em, {
    organizationId: caller.organizationId,
    campaignId: input.campaignId,
    status: input.status,
    emailPattern: input.email ? exactPattern(input.email) : undefined,
    shareLinkId: input.shareLinkId,
    limit: input.limit,
    offset: input.offset,
  });
  const [first] = rows;
  if (!first) throw notFound('campaign', input.campaignId);
  const owner = { domain: first.link_domain };
  const invites = rows.filter((row) => row.id !== null).map((row) => toInviteDto(inviteViewOf(row), services, owner, now));
  const total = Number(first.total);
  const hasMore = input.offset + invites.length < total;
  const last = rows.at(-1)!;
  return {
    data: invites,
    pagination: {
      total,
      limit: input.limit,
      offset: input.offset,
      hasMore,
      nextCursor: hasMore && last.id !== null ? cursorAfter(last.sort_value!, last.id) : null,
    },
  };
}

/** A row of a page as what invite records are made from (every invite column is set when `id` is). */
function inviteViewOf(row: RowOf<typeof invitePage.columns>): InviteView {
  const date = (iso: string | null) => (iso === null ? null : new Date(iso));
  return {
    id: row.id!,
    campaign: { id: row.campaign_id! },
    shareLink: row.share_link_id ? { id: row.share_link_id } : null,
    email: row.email,
    name: row.name,
    language: row.language,
    status: row.status as TInviteStatus,
    emailStatus: row.email_status as InviteView['emailStatus'],
    emailTemplate: row.email_template,
    expiresAt: new Date(row.expires_at!),
    metadata: row.metadata as InviteView['metadata'],
    startedAt: date(row.started_at),
    completedAt: date(row.completed_at),
    cancelledAt: date(row.cancelled_at),
    emailSentAt: date(row.email_sent_at),
    createdAt: new Date(row.created_at!),
    updatedAt: new Date(row.updated_at!),
  };
}
