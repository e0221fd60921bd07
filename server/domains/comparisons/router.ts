import { router } from '../../trpc/trpc.js';

/** Comparison reports across campaigns or segments (dashboard-only: tRPC procedures, no REST path). */
export const comparisonsRouter = router({});
