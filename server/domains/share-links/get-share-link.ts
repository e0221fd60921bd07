import type { EntityManager } from '@mikro-orm/postgresql';
import type { TShareLink } from '../../../shared/schemas/share-links.js';
import type { PublicLinks } from '../../lib/public-links.js';
import { loadShareLink, toShareLinkDtoOf } from './load-share-link.js';

export async function getShareLink(em: EntityManager, links: PublicLinks, organizationId: string, shareLinkId: string): Promise<TShareLink> {
  return toShareLinkDtoOf(em, links, organizationId, await loadShareLink(em, organizationId, shareLinkId));
}
