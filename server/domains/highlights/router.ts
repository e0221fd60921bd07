import { router } from '../../trpc/trpc.js';

/** Highlights: labelled, coloured spans of utterances (dashboard-only: tRPC procedures, no REST path). */
export const highlightsRouter = router({});
