/** What other domains may use of campaigns: everything else here is the domain's own. */
export { createCampaign } from './create-campaign.js';
export { campaignTurnTaking } from './campaign-turn-taking.js';
export { assertCampaignAcceptsInvites, assertKnownEmailTemplate, type InviteCampaign, resolveEmailTemplate, resolveInviteExpiry } from './invite-options.js';
export { loadCampaign } from './load-campaign.js';
export { participantTitleOf } from './participant-title.js';
export { upsertPreviewCampaign } from './queries.js';
