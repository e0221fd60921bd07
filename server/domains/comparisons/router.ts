import { ZCompareInput, ZComparison } from '../../../shared/schemas/comparisons.js';
import { customerProcedure, router } from '../../trpc/trpc.js';
import { compareSegments } from './compare-segments.js';

/** Comparison reports across campaigns or segments (dashboard-only: tRPC procedures, no REST path). */
export const comparisonsRouter = router({
  compare: customerProcedure
    .meta({ permission: 'sessions:read' })
    .input(ZCompareInput)
    .output(ZComparison)
    .query(({ ctx, input }) => compareSegments(ctx, ctx.auth, input)),
});
