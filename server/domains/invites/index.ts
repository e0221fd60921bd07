/** What other domains may use of invites: everything else here is the domain's own. */
export { type InviteServices, insertInvites } from './insert-invites.js';
export { languageOf } from './interview-language.js';
export { assertInviteModifiable, loadInvite } from './load-invite.js';
export { effectiveInviteStatus, type InviteLinkServices, toInviteDto } from './serialize.js';
export { startInvite } from './start-invite.js';
export { assessShareLink, countRespondents, shareLinkStatus } from './share-link-status.js';
