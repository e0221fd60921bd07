import type { EntityManager } from '@mikro-orm/postgresql';
import type { TShareLink, TShareLinkStatus } from '../../../shared/schemas/share-links.js';
import type { Campaign, ShareLink } from '../../entities/index.js';
import type { LinkOwner, PublicLinks } from '../../lib/public-links.js';

/**
 * Why a link does or does not accept visitors. Checked in this order: closed (through the API, or
 * its campaign archived), expired, full (maxRespondents participants started).
 */
export function shareLinkStatus(
  link: Pick<ShareLink, 'closedAt' | 'expiresAt' | 'maxRespondents'>,
  campaign: Pick<Campaign, 'status'>,
  respondents: number,
  now: Date = new Date(),
): TShareLinkStatus {
  if (link.closedAt || campaign.status === 'archived') return 'closed';
  if (link.expiresAt && link.expiresAt.getTime() <= now.getTime()) return 'expired';
  if (link.maxRespondents !== null && link.maxRespondents !== undefined && respondents >= link.maxRespondents) return 'full';
  return 'active';
}

/** Respondents are participants who started an interview through the link, counted for many links in one query. */
export async function countRespondents(em: EntityManager, shareLinkIds: string[]): Promise<Map<string, number>> {
  const counts = new Map(shareLinkIds.map((id) => [id, 0]));
  if (shareLinkIds.length === 0) return counts;
  const rows = await em.execute<{ share_link_id: string; respondents: string }[]>(
    `select share_link_id, count(*) as respondents from invites
     where share_link_id = any(array[?]::text[]) and started_at is not null group by share_link_id`,
    [shareLinkIds],
  );
  for (const row of rows) counts.set(row.share_link_id, Number(row.respondents));
  return counts;
}

export function toShareLinkDto(
  link: ShareLink,
  campaign: Pick<Campaign, 'status'>,
  respondents: number,
  owner: LinkOwner,
  links: PublicLinks,
  now: Date = new Date(),
): TShareLink {
  return {
    id: link.id,
    campaignId: link.campaign.id,
    code: link.code,
    url: links.shareLinkUrl(owner, link.code),
    status: shareLinkStatus(link, campaign, respondents, now),
    maxRespondents: link.maxRespondents ?? null,
    respondents,
    expiresAt: link.expiresAt?.toISOString() ?? null,
    closedAt: link.closedAt?.toISOString() ?? null,
    createdAt: link.createdAt.toISOString(),
    updatedAt: link.updatedAt.toISOString(),
  };
}
