import { ZCreateSummaryInput, ZSummary } from '../../../shared/schemas/summaries.js';
import { customerProcedure, router } from '../../trpc/trpc.js';
import { createSummary } from './create-summary.js';

/** AI summaries across a set of sessions (dashboard-only: tRPC procedures, no REST path). */
export const summariesRouter = router({
  create: customerProcedure
    .meta({ permission: 'sessions:read' })
    .input(ZCreateSummaryInput)
    .output(ZSummary)
    .mutation(({ ctx, input }) => createSummary(ctx, ctx.auth, input)),
});
