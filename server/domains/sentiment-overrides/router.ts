import { router } from '../../trpc/trpc.js';

/** Sentiment overrides per utterance, audited (dashboard-only: tRPC procedures, no REST path). */
export const sentimentOverridesRouter = router({});
