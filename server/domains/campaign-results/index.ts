/** What other domains may use of campaign results: the results themselves and the one predicate of which sessions they count (a shared campaign link shows both). */
export { getCampaignResults } from './get-campaign-results.js';
export { keptSessionsWhere } from './queries.js';
