import {
  ZListSentimentOverridesInput,
  ZSentimentOverride,
  ZSentimentOverrideList,
  ZSetSentimentOverrideInput,
} from '../../../shared/schemas/sentiment-overrides.js';
import { customerProcedure, router } from '../../trpc/trpc.js';
import { listSentimentOverrides } from './list-sentiment-overrides.js';
import { setSentimentOverride } from './set-sentiment-override.js';

/** Sentiment overrides per utterance, audited (dashboard-only: tRPC procedures, no REST path). */
export const sentimentOverridesRouter = router({
  set: customerProcedure
    .meta({ permission: 'sessions:write', errors: ['TRANSCRIPT_NOT_READY'] })
    .input(ZSetSentimentOverrideInput)
    .output(ZSentimentOverride)
    .mutation(({ ctx, input }) => setSentimentOverride(ctx, ctx.auth, input)),

  list: customerProcedure
    .meta({ permission: 'sessions:read' })
    .input(ZListSentimentOverridesInput)
    .output(ZSentimentOverrideList)
    .query(({ ctx, input }) => listSentimentOverrides(ctx, ctx.auth, input)),
});
