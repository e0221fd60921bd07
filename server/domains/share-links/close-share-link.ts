import type { EntityManager } from '@mikro-orm/postgresql';
import type { TShareLink } from '../../../shared/schemas/share-links.js';
import type { PublicLinks } from '../../lib/public-links.js';
import { loadShareLink, toShareLinkDtoOf } from './load-share-link.js';

/** Closing is final: visitors see the closed page; participants already started may finish. */
export async function closeShareLink(em: EntityManager, links: PublicLinks, organizationId: string, shareLinkId: string): Promise<TShareLink> {
  const link = await loadShareLink(em, organizationId, shareLinkId);
  if (!link.closedAt) {
    link.closedAt = new Date();
    await em.flush();
  }
  return toShareLinkDtoOf(em, links, organizationId, link);
}
