import type { EntityManager } from '@mikro-orm/postgresql';
import type { TShareLink } from '../../../shared/schemas/share-links.js';
import { ShareLink } from '../../entities/index.js';
import { notFound } from '../../errors.js';
import type { PublicLinks } from '../../lib/public-links.js';
import type { OrganizationScope } from '../common/caller.js';
import type { Deps } from '../common/deps.js';
import { countRespondents } from '../invites/index.js';
import { loadLinkOwner } from '../organizations/index.js';
import { toShareLinkDto } from './serialize.js';

/** What share-link operations need: the unit of work and the public links (a link's URL). */
export type ShareLinkDeps = Pick<Deps, 'em'> & { services: { links: PublicLinks } };

export async function loadShareLink(em: EntityManager, scope: OrganizationScope, input: { shareLinkId: string }): Promise<ShareLink> {
  const link = await em.findOne(ShareLink, { id: input.shareLinkId, organization: scope.organizationId }, { populate: ['campaign'] });
  if (!link) throw notFound('shareLink', input.shareLinkId);
  return link;
}

/** The record of one link: its respondents and its URL on the organization's domain. */
export async function toShareLinkDtoOf(em: EntityManager, scope: OrganizationScope, input: { link: ShareLink; links: PublicLinks }): Promise<TShareLink> {
  const { link, links } = input;
  const respondents = await countRespondents(em, [link.id]);
  return toShareLinkDto(link, link.campaign, respondents.get(link.id)!, await loadLinkOwner(em, scope), links);
}
