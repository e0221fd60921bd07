/** What other domains may use of members: everything else here is the domain's own. */
export { type ClientInfo } from '../common/client-info.js';
export { signedInAnswer, startMemberSession } from './member-sessions.js';
export { toMemberDto } from './serialize.js';
