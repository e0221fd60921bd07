/** What other domains may use of organizations: everything else here is the domain's own. */
export { loadLinkOwner } from './load-link-owner.js';
export { ensureTestOrganization, mirrorLiveOrganization, organizationWorldIds } from './test-organization.js';
