/** What other domains may use of share-links: everything else here is the domain's own. */
export { insertShareLink } from './create-share-link.js';
export { toShareLinkDto } from './serialize.js';
