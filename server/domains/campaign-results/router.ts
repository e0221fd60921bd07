import { ZCampaignResults, ZCampaignResultSessionsInput, ZCampaignResultsInput, ZResultsSessionPage } from '../../../shared/schemas/campaign-results.js';
import { customerProcedure, router } from '../../trpc/trpc.js';
import { getCampaignResults } from './get-campaign-results.js';
import { listCampaignResultSessions } from './list-campaign-result-sessions.js';

/** A campaign's results page (dashboard-only: tRPC procedures, no REST path). */
export const campaignResultsRouter = router({
  get: customerProcedure
    .meta({ permission: 'sessions:read' })
    .input(ZCampaignResultsInput)
    .output(ZCampaignResults)
    .query(({ ctx, input }) => getCampaignResults(ctx, ctx.auth, input)),

  sessions: customerProcedure
    .meta({ permission: 'sessions:read' })
    .input(ZCampaignResultSessionsInput)
    .output(ZResultsSessionPage)
    .query(({ ctx, input }) => listCampaignResultSessions(ctx, ctx.auth, input)),
});
