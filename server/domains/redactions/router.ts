import { ZListRedactionsInput, ZRedactInput, ZRedaction, ZRedactionList } from '../../../shared/schemas/redactions.js';
import { customerProcedure, router } from '../../trpc/trpc.js';
import { listRedactions } from './list-redactions.js';
import { redactUtterance } from './redact-utterance.js';

/**
 * Manual redaction (dashboard-only: tRPC procedures, no REST path). `sessions:write`, for members
 * and API keys alike: a key holding it can already delete a campaign's sessions outright, and
 * every redaction is audited with who made it.
 */
export const redactionsRouter = router({
  redact: customerProcedure
    .meta({ permission: 'sessions:write', errors: ['SESSION_NOT_ACTIVE', 'TRANSCRIPT_NOT_READY', 'TRANSCRIPT_CHANGED', 'SERVICE_UNAVAILABLE'] })
    .input(ZRedactInput)
    .output(ZRedaction)
    .mutation(({ ctx, input }) => redactUtterance(ctx, ctx.auth, input)),

  list: customerProcedure
    .meta({ permission: 'sessions:read' })
    .input(ZListRedactionsInput)
    .output(ZRedactionList)
    .query(({ ctx, input }) => listRedactions(ctx, ctx.auth, input)),
});
