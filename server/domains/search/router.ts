import { ZSearchQueryInput, ZSearchResult } from '../../../shared/schemas/search.js';
import { customerProcedure, router } from '../../trpc/trpc.js';
import { searchTranscripts } from './search-transcripts.js';

/** Cross-transcript full-text search (dashboard-only: tRPC procedures, no REST path). */
export const searchRouter = router({
  /** Every utterance of every session of the organization matching the query, best first. */
  query: customerProcedure
    .meta({ permission: 'sessions:read', errors: ['INVALID_REQUEST'] })
    .input(ZSearchQueryInput)
    .output(ZSearchResult)
    .query(({ ctx, input }) => searchTranscripts(ctx, ctx.auth, input)),
});
