import { apiKeysRouter } from '../domains/api-keys/router.js';
import { authRouter } from '../domains/auth/router.js';
import { billingRouter } from '../domains/billing/router.js';
import { membersRouter } from '../domains/members/router.js';
import { campaignResultsRouter } from '../domains/campaign-results/router.js';
import { campaignsRouter } from '../domains/campaigns/router.js';
import { invitesRouter, scriptPreviewRouter } from '../domains/invites/router.js';
import { organizationRouter } from '../domains/organizations/router.js';
import { quickstartRouter } from '../domains/quickstart/router.js';
import { shareLinksRouter } from '../domains/share-links/router.js';
import { projectsRouter } from '../domains/projects/router.js';
import { scriptsRouter } from '../domains/scripts/router.js';
import { inviteCancelRouter, participantApiRouter, sessionsRouter } from '../domains/sessions/router.js';
import { transcriptsRouter } from '../domains/transcripts/router.js';
import { insightsRouter } from '../domains/insights/router.js';
import { eventsRouter, webhooksRouter } from '../domains/webhooks/router.js';
import { highlightsRouter } from '../domains/highlights/router.js';
import { commentsRouter } from '../domains/comments/router.js';
import { collectionsRouter } from '../domains/collections/router.js';
import { savedSearchesRouter } from '../domains/saved-searches/router.js';
import { searchRouter } from '../domains/search/router.js';
import { comparisonsRouter } from '../domains/comparisons/router.js';
import { summariesRouter } from '../domains/summaries/router.js';
import { redactionsRouter } from '../domains/redactions/router.js';
import { sentimentOverridesRouter } from '../domains/sentiment-overrides/router.js';
import { anonymizedExportsRouter } from '../domains/anonymized-exports/router.js';
import { workspaceRouter } from '../domains/workspace/router.js';
import { stakeholderLinksRouter } from '../domains/stakeholder-links/router.js';
import { mergeRouters, router } from './trpc.js';

/** Every domain procedure. REST paths live in each procedure's meta. */
export const appRouter = router({
  projects: projectsRouter,
  // scripts.createPreview is declared with invites: it makes a campaign and an invite.
  scripts: mergeRouters(scriptsRouter, scriptPreviewRouter),
  campaigns: campaignsRouter,
  campaignResults: campaignResultsRouter,
  // invites.cancel is declared with sessions: it abandons the invite's unfinished interview.
  invites: mergeRouters(invitesRouter, inviteCancelRouter),
  sessions: sessionsRouter,
  // Insights are their own domain; their procedure keeps its path, transcripts.insights.
  transcripts: mergeRouters(transcriptsRouter, insightsRouter),
  shareLinks: shareLinksRouter,
  quickstart: quickstartRouter,
  organization: organizationRouter,
  webhooks: webhooksRouter,
  events: eventsRouter,
  members: membersRouter,
  billing: billingRouter,
  auth: authRouter,
  apiKeys: apiKeysRouter,
  highlights: highlightsRouter,
  comments: commentsRouter,
  collections: collectionsRouter,
  savedSearches: savedSearchesRouter,
  search: searchRouter,
  comparisons: comparisonsRouter,
  summaries: summariesRouter,
  redactions: redactionsRouter,
  sentimentOverrides: sentimentOverridesRouter,
  anonymizedExports: anonymizedExportsRouter,
  workspace: workspaceRouter,
  stakeholderLinks: stakeholderLinksRouter,
  interview: participantApiRouter,
});

/** The type first-party frontends pass to `@trpc/client`. */
export type AppRouter = typeof appRouter;
