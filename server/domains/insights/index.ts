/** What other domains may use of insights: everything else here is the domain's own. */
export { findInsights } from './get-insights.js';
