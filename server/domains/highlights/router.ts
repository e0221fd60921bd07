import { z } from 'zod';
import {
  ZCreateHighlightInput,
  ZHighlight,
  ZHighlightIdInput,
  ZHighlightPage,
  ZListHighlightsInput,
  ZUpdateHighlightInput,
} from '../../../shared/schemas/highlights.js';
import { customerProcedure, router } from '../../trpc/trpc.js';
import { createHighlight } from './create-highlight.js';
import { deleteHighlight } from './delete-highlight.js';
import { listHighlights } from './list-highlights.js';
import { updateHighlight } from './update-highlight.js';

/** Highlights: labelled, coloured spans of utterances (dashboard-only: tRPC procedures, no REST path). */
export const highlightsRouter = router({
  create: customerProcedure
    .meta({ permission: 'sessions:write' })
    .input(ZCreateHighlightInput)
    .output(ZHighlight)
    .mutation(({ ctx, input }) => createHighlight(ctx, ctx.auth, input)),

  list: customerProcedure
    .meta({ permission: 'sessions:read' })
    .input(ZListHighlightsInput)
    .output(ZHighlightPage)
    .query(({ ctx, input }) => listHighlights(ctx, ctx.auth, input)),

  update: customerProcedure
    .meta({ permission: 'sessions:write' })
    .input(ZUpdateHighlightInput)
    .output(ZHighlight)
    .mutation(({ ctx, input }) => updateHighlight(ctx, ctx.auth, input)),

  delete: customerProcedure
    .meta({ permission: 'sessions:write' })
    .input(ZHighlightIdInput)
    .output(z.void())
    .mutation(({ ctx, input }) => deleteHighlight(ctx, ctx.auth, input)),
});
