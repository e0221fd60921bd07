import { ZAnonymizedExport, ZCreateAnonymizedExportInput } from '../../../shared/schemas/anonymized-exports.js';
import { customerProcedure, router } from '../../trpc/trpc.js';
import { createAnonymizedExport } from './create-anonymized-export.js';

/**
 * Anonymized exports (dashboard-only: tRPC procedures, no REST path). `sessions:read`: it reveals
 * less than the transcripts the caller can already read.
 */
export const anonymizedExportsRouter = router({
  create: customerProcedure
    .meta({ permission: 'sessions:read' })
    .input(ZCreateAnonymizedExportInput)
    .output(ZAnonymizedExport)
    .mutation(({ ctx, input }) => createAnonymizedExport(ctx, ctx.auth, input)),
});
