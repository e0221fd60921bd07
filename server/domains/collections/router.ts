import { router } from '../../trpc/trpc.js';

/** Shared collections of highlights across sessions (dashboard-only: tRPC procedures, no REST path). */
export const collectionsRouter = router({});
