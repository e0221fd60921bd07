import type { TCampaignResults } from '../../../../shared/schemas/campaign-results';

/**
 * PLACEHOLDER until the results branch lands (issue 31): the read-only rendering of a campaign's
 * results (funnel, question charts and tables, feedback), shared by the dashboard's results page
 * and the stakeholder link's page. It fetches nothing: the caller passes the results.
 */
export function CampaignResultsPanel({ results }: { results: TCampaignResults }) {
  return <p>{results.sessionCount} sessions</p>;
}
