import { useQuery } from '@tanstack/react-query';
import { Link } from '../router';
import { useTRPC } from '../trpc';
import { PageHeading } from '../ui';
import { CampaignResultsView } from './CampaignResultsView';

/**
 * `/campaigns/:id/results`: the results view on a page of its own, until the campaign page's
 * results tab mounts it (issue 31). Linkable with its filters in the query.
 */
export function CampaignResultsPage({ campaignId }: { campaignId: string }) {
  const trpc = useTRPC();
  const campaign = useQuery(trpc.campaigns.get.queryOptions({ campaignId }));
  return (
    <>
      <p className="crumbs">
        <Link to={`/campaigns/${campaignId}`}>{campaign.data?.name ?? 'Campaign'}</Link>
      </p>
      <PageHeading title={campaign.data ? `${campaign.data.name}: results` : 'Campaign results'} />
      <CampaignResultsView campaignId={campaignId} />
    </>
  );
}
