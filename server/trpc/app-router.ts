import { campaignsRouter } from '../domains/campaigns/router.js';
import { projectsRouter } from '../domains/projects/router.js';
import { scriptsRouter } from '../domains/scripts/router.js';
import { router } from './trpc.js';

/** Every domain procedure. REST paths live in each procedure's meta. */
export const appRouter = router({
  projects: projectsRouter,
  scripts: scriptsRouter,
  campaigns: campaignsRouter,
});

/** The type first-party frontends pass to `@trpc/client`. */
export type AppRouter = typeof appRouter;
