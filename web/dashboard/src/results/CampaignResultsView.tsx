/**
 * PLACEHOLDER until the results branch lands (issue 31): a campaign's results page (filters,
 * segments side by side, the filtered session list) inside the campaign's view.
 */
export function CampaignResultsView({ campaignId }: { campaignId: string }) {
  return <p>Results of {campaignId} are not built yet.</p>;
}
