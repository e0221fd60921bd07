import type { TShareLink } from '../../../shared/schemas/share-links.js';
import type { Caller } from '../common/caller.js';
import { loadShareLink, type ShareLinkDeps, toShareLinkDtoOf } from './load-share-link.js';

/** Closing is final: visitors see the closed page; participants already started may finish. */
export async function closeShareLink({ em, services }: ShareLinkDeps, caller: Caller, input: { shareLinkId: string }): Promise<TShareLink> {
  const link = await loadShareLink(em, caller, input);
  if (!link.closedAt) {
    link.closedAt = new Date();
    await em.flush();
  }
  return toShareLinkDtoOf(em, caller, { link, links: services.links });
}
