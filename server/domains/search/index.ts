/** What other domains may use of search: the check that a search's campaign and project filters are the organization's (saved searches keep filters). */
export { resolveCampaignScope } from './search-transcripts.js';
