import type { TShareLink } from '../../../shared/schemas/share-links.js';
import type { Caller } from '../common/caller.js';
import { loadShareLink, type ShareLinkDeps, toShareLinkDtoOf } from './load-share-link.js';

export async function getShareLink({ em, services }: ShareLinkDeps, caller: Caller, input: { shareLinkId: string }): Promise<TShareLink> {
  return toShareLinkDtoOf(em, caller, { link: await loadShareLink(em, caller, input), links: services.links });
}
