import { ZTranscript, ZTranscriptInput } from '../../../shared/schemas/transcripts.js';
import { apiProcedure, router } from '../../trpc/trpc.js';
import { getTranscript } from './get-transcript.js';

/**
 * Results of a session as JSON. The REST transcript (all four formats) and the PDF are plain
 * routes (server/http/results-routes.ts); `get` here serves typed first-party clients over /trpc.
 * `transcripts.insights` is the insights domain's (insights/router.ts), merged in by the app router.
 */
export const transcriptsRouter = router({
  get: apiProcedure
    .meta({ permission: 'sessions:read', errors: ['TRANSCRIPT_NOT_READY'] })
    .input(ZTranscriptInput)
    .output(ZTranscript)
    .query(({ ctx, input }) => getTranscript(ctx, ctx.auth, input)),
});
