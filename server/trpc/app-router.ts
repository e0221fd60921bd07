import { apiKeysRouter } from '../domains/api-keys/router.js';
import { authRouter } from '../domains/auth/router.js';
import { billingRouter } from '../domains/billing/router.js';
import { membersRouter } from '../domains/members/router.js';
import { campaignsRouter } from '../domains/campaigns/router.js';
import { invitesRouter } from '../domains/invites/router.js';
import { organizationRouter } from '../domains/organizations/router.js';
import { quickstartRouter } from '../domains/quickstart/router.js';
import { shareLinksRouter } from '../domains/share-links/router.js';
import { projectsRouter } from '../domains/projects/router.js';
import { scriptsRouter } from '../domains/scripts/router.js';
import { sessionsRouter } from '../domains/sessions/router.js';
import { transcriptsRouter } from '../domains/transcripts/router.js';
import { webhooksRouter } from '../domains/webhooks/router.js';
import { router } from './trpc.js';

/** Every domain procedure. REST paths live in each procedure's meta. */
export const appRouter = router({
  projects: projectsRouter,
  scripts: scriptsRouter,
  campaigns: campaignsRouter,
  invites: invitesRouter,
  sessions: sessionsRouter,
  transcripts: transcriptsRouter,
  shareLinks: shareLinksRouter,
  quickstart: quickstartRouter,
  organization: organizationRouter,
  webhooks: webhooksRouter,
  members: membersRouter,
  billing: billingRouter,
  auth: authRouter,
  apiKeys: apiKeysRouter,
});

/** The type first-party frontends pass to `@trpc/client`. */
export type AppRouter = typeof appRouter;
