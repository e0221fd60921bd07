import type { EntityManager } from '@mikro-orm/postgresql';
import type { Page } from '../../../shared/schemas/common.js';
import type { TListShareLinksInput, TShareLink } from '../../../shared/schemas/share-links.js';
import { ShareLink } from '../../entities/index.js';
import { notFound } from '../../errors.js';
import type { PublicLinks } from '../../lib/public-links.js';
import { loadCampaign } from '../campaigns/load-campaign.js';
import { loadLinkOwner } from '../invites/serialize.js';
import { pageOf } from '../pagination.js';
import { countRespondents, toShareLinkDto } from './serialize.js';

export async function listShareLinks(
  em: EntityManager,
  links: PublicLinks,
  organizationId: string,
  input: TListShareLinksInput,
): Promise<Page<TShareLink>> {
  const campaign = await loadCampaign(em, organizationId, input.campaignId);
  const [shareLinks, total] = await em.findAndCount(
    ShareLink,
    { campaign, organization: organizationId },
    { orderBy: { createdAt: 'desc', id: 'desc' }, limit: input.limit, offset: input.offset },
  );
  const respondents = await countRespondents(
    em,
    shareLinks.map((link) => link.id),
  );
  const owner = await loadLinkOwner(em, organizationId);
  const now = new Date();
  return pageOf(
    shareLinks.map((link) => toShareLinkDto(link, campaign, respondents.get(link.id)!, owner, links, now)),
    total,
    input.limit,
    input.offset,
  );
}

export async function loadShareLink(em: EntityManager, organizationId: string, shareLinkId: string): Promise<ShareLink> {
  const link = await em.findOne(ShareLink, { id: shareLinkId, organization: organizationId }, { populate: ['campaign'] });
  if (!link) throw notFound('shareLink', shareLinkId);
  return link;
}

export async function getShareLink(em: EntityManager, links: PublicLinks, organizationId: string, shareLinkId: string): Promise<TShareLink> {
  const link = await loadShareLink(em, organizationId, shareLinkId);
  const respondents = await countRespondents(em, [link.id]);
  return toShareLinkDto(link, link.campaign, respondents.get(link.id)!, await loadLinkOwner(em, organizationId), links);
}

/** Closing is final: visitors see the closed page; participants already started may finish. */
export async function closeShareLink(em: EntityManager, links: PublicLinks, organizationId: string, shareLinkId: string): Promise<TShareLink> {
  const link = await loadShareLink(em, organizationId, shareLinkId);
  if (!link.closedAt) {
    link.closedAt = new Date();
    await em.flush();
  }
  const respondents = await countRespondents(em, [link.id]);
  return toShareLinkDto(link, link.campaign, respondents.get(link.id)!, await loadLinkOwner(em, organizationId), links);
}
