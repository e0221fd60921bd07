import type { EntityManager } from '@mikro-orm/postgresql';
import type { TShareLink } from '../../../shared/schemas/share-links.js';
import { ShareLink } from '../../entities/index.js';
import { notFound } from '../../errors.js';
import type { PublicLinks } from '../../lib/public-links.js';
import { loadLinkOwner } from '../organizations/index.js';
import { toShareLinkDto } from './serialize.js';
import { countRespondents } from './share-link-status.js';

export async function loadShareLink(em: EntityManager, organizationId: string, shareLinkId: string): Promise<ShareLink> {
  const link = await em.findOne(ShareLink, { id: shareLinkId, organization: organizationId }, { populate: ['campaign'] });
  if (!link) throw notFound('shareLink', shareLinkId);
  return link;
}

/** The record of one link: its respondents and its URL on the organization's domain. */
export async function toShareLinkDtoOf(em: EntityManager, links: PublicLinks, organizationId: string, link: ShareLink): Promise<TShareLink> {
  const respondents = await countRespondents(em, [link.id]);
  return toShareLinkDto(link, link.campaign, respondents.get(link.id)!, await loadLinkOwner(em, { organizationId }), links);
}
