/** What other domains may use of campaigns: everything else here is the domain's own. */
export { upsertPreviewCampaign } from './queries.js';
