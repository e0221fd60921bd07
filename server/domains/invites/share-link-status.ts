import type { EntityManager } from '@mikro-orm/postgresql';
import type { TShareLinkStatus } from '../../../shared/schemas/share-links.js';
import type { Campaign, ShareLink } from '../../entities/index.js';
import { respondentsByShareLink } from './queries.js';

/**
 * A share link's status lives with invites: a link hands out invites, its respondents are invites
 * started through it, and the invite page and the interview start decide by it (share-links, above
 * invites, uses it through invites/index.ts).
 *
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
  const rows = await respondentsByShareLink.rows(em, { shareLinkIds });
  for (const row of rows) counts.set(row.share_link_id, Number(row.respondents));
  return counts;
}

/**
 * One link's respondents and status, as the join page, the invite page and the interview start
 * all decide it. The start calls it with the link's row locked, so the count cannot change under it.
 */
export async function assessShareLink(
  em: EntityManager,
  link: ShareLink,
  campaign: Pick<Campaign, 'status'>,
): Promise<{ status: TShareLinkStatus; respondents: number }> {
  const respondents = (await countRespondents(em, [link.id])).get(link.id)!;
  return { status: shareLinkStatus(link, campaign, respondents), respondents };
}
