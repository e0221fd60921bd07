import { ZInsights, ZInsightsQuery, ZTranscript, ZTranscriptInput } from '../../../shared/schemas/transcripts.js';
import { requestedPiiKinds } from '../../../shared/schemas/pii.js';
import { apiProcedure, router } from '../../trpc/trpc.js';
import { getInsights } from '../insights/get-insights.js';
import { getTranscript } from './get-transcript.js';

const tags = ['Sessions'];

/**
 * Results of a session as JSON. The REST transcript (all four formats) and the PDF are plain
 * routes (server/http/results-routes.ts); `get` here serves typed first-party clients over /trpc.
 */
export const transcriptsRouter = router({
  get: apiProcedure
    .meta({ permission: 'sessions:read', errors: ['TRANSCRIPT_NOT_READY'] })
    .input(ZTranscriptInput)
    .output(ZTranscript)
    .query(({ ctx, input }) => getTranscript(ctx.em, ctx.auth.organizationId, input.sessionId, input)),

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
    .query(({ ctx, input }) => getInsights(ctx.em, ctx.auth.organizationId, input.sessionId, { redactKinds: requestedPiiKinds(input) })),
});

