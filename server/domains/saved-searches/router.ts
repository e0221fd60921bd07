import { router } from '../../trpc/trpc.js';

/** Saved searches (dashboard-only: tRPC procedures, no REST path). */
export const savedSearchesRouter = router({});
