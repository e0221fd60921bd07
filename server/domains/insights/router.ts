import { ZInsights, ZInsightsQuery } from '../../../shared/schemas/transcripts.js';
import { apiProcedure, router } from '../../trpc/trpc.js';
import { getInsights } from './get-insights.js';

const tags = ['Sessions'];

/**
 * A session's insights. Merged into `transcripts` by the app router (server/trpc/app-router.ts),
 * so typed clients keep calling `transcripts.insights`.
 */
export const insightsRouter = router({
  insights: apiProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/v1/sessions/{sessionId}/insights',
        tags,
        summary: "Get a session's insights",
        description:
          'Summary, key quotes (verbatim, with their utterance ids), action items and topics with their utterances, made after the transcript. 409 `INSIGHTS_NOT_READY` until they exist (`details.status`: `pending`, or `none` for a session without a transcript).',
      },
      permission: 'sessions:read',
      errors: ['INSIGHTS_NOT_READY'],
    })
    .input(ZInsightsQuery)
    .output(ZInsights)
    .query(({ ctx, input }) => getInsights(ctx, ctx.auth, input)),
});
