import { ZInvoiceDownloadInput, ZSessionDownloadInput, ZSignedDownload, ZWorkspaceSession, ZWorkspaceSessionInput } from '../../../shared/schemas/workspace.js';
import { customerProcedure, router } from '../../trpc/trpc.js';
import { signInvoiceDownload, signSessionDownload } from './download-links.js';
import { getSessionView } from './get-session-view.js';

/** Read models and links the dashboard's views need (dashboard-only: tRPC procedures, no REST path). */
export const workspaceRouter = router({
  session: customerProcedure
    .meta({ permission: 'sessions:read' })
    .input(ZWorkspaceSessionInput)
    .output(ZWorkspaceSession)
    .query(({ ctx, input }) => getSessionView(ctx, ctx.auth, input)),

  sessionDownload: customerProcedure
    .meta({ permission: 'sessions:read' })
    .input(ZSessionDownloadInput)
    .output(ZSignedDownload)
    .mutation(({ ctx, input }) => signSessionDownload(ctx, ctx.auth, input)),

  invoiceDownload: customerProcedure
    .meta({ permission: 'billing:read' })
    .input(ZInvoiceDownloadInput)
    .output(ZSignedDownload)
    .mutation(({ ctx, input }) => signInvoiceDownload(ctx, ctx.auth, input)),
});
