/** What other domains may use of invites: everything else here is the domain's own. */
export { type InviteServices, insertInvites } from './insert-invites.js';
export { assessShareLink, countRespondents, shareLinkStatus } from './share-link-status.js';
