import { router } from '../../trpc/trpc.js';

/** AI summaries across a set of sessions (dashboard-only: tRPC procedures, no REST path). */
export const summariesRouter = router({});
