import {
  ZBulkCreateInvitesInput,
  ZBulkCreateInvitesResult,
  ZCreateInviteInput,
  ZInvite,
  ZInviteIdInput,
  ZInvitePage,
  ZListInvitesInput,
} from '../../../shared/schemas/invites.js';
import { ZCreateScriptPreviewInput, ZScriptPreview } from '../../../shared/schemas/scripts.js';
import { apiProcedure, customerProcedure, router } from '../../trpc/trpc.js';
import { bulkCreateInvites } from './bulk-create-invites.js';
import { createInvite } from './create-invite.js';
import { createScriptPreview } from './create-script-preview.js';
import { getInvite } from './get-invite.js';
import { listInvites } from './list-invites.js';
import { resendInvite } from './resend-invite.js';

const tags = ['Invites'];

const createInviteProcedure = (path: '/v1/campaigns/{campaignId}/invites' | '/api/campaigns/{campaignId}/invites') =>
  apiProcedure
    .meta({
      openapi: {
        method: 'POST',
        path,
        tags,
        summary: 'Create an invite',
        description: 'A new invite is pending; its email is queued unless sendEmail is false.',
      },
      permission: 'invites:write',
      successStatus: 201,
      location: '/v1/invites/{id}',
      errors: ['CAMPAIGN_NOT_ACTIVE'],
    })
    .input(ZCreateInviteInput)
    .output(ZInvite)
    .mutation(({ ctx, input }) => createInvite(ctx, ctx.auth, input));

export const invitesRouter = router({
  create: createInviteProcedure('/v1/campaigns/{campaignId}/invites'),
  /** The spec's `/api/campaigns/{id}/invites`: the same operation under the service's own `/api` prefix. */
  createUnderApiPrefix: createInviteProcedure('/api/campaigns/{campaignId}/invites'),

  bulkCreate: apiProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/v1/campaigns/{campaignId}/invites/bulk',
        tags,
        summary: 'Create up to 500 invites',
        description:
          'All or nothing: every item is validated first, and nothing is created when any is invalid (422 naming each bad ' +
          '`invites[i]` in `details.fields`). Answers 201 with `data` (the created invites, in request order) and `count`.',
      },
      permission: 'invites:write',
      successStatus: 201,
      errors: ['CAMPAIGN_NOT_ACTIVE'],
    })
    .input(ZBulkCreateInvitesInput)
    .output(ZBulkCreateInvitesResult)
    .mutation(({ ctx, input }) => bulkCreateInvites(ctx, ctx.auth, input)),

  list: apiProcedure
    .meta({ openapi: { method: 'GET', path: '/v1/campaigns/{campaignId}/invites', tags, summary: "List a campaign's invites" }, permission: 'invites:read' })
    .input(ZListInvitesInput)
    .output(ZInvitePage)
    .query(({ ctx, input }) => listInvites(ctx, ctx.auth, input)),

  get: apiProcedure
    .meta({ openapi: { method: 'GET', path: '/v1/invites/{inviteId}', tags, summary: 'Get an invite' }, permission: 'invites:read' })
    .input(ZInviteIdInput)
    .output(ZInvite)
    .query(({ ctx, input }) => getInvite(ctx, ctx.auth, input)),

  resend: apiProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/v1/invites/{inviteId}/resend',
        tags,
        summary: 'Resend the invitation email',
        description: 'Queues the email again (emailStatus `queued`). Only pending invites with an email address.',
      },
      permission: 'invites:write',
      errors: ['INVITE_EXPIRED', 'INVITE_CANCELLED', 'INVITE_ALREADY_USED', 'INVITE_HAS_NO_EMAIL', 'CAMPAIGN_NOT_ACTIVE'],
    })
    .input(ZInviteIdInput)
    .output(ZInvite)
    .mutation(({ ctx, input }) => resendInvite(ctx, ctx.auth, input)),
});

/**
 * Mounted under `scripts` by server/trpc/app-router.ts (the procedure is `scripts.createPreview`):
 * a preview makes a campaign and an invite, so its code sits above scripts, here.
 */
export const scriptPreviewRouter = router({
  /** Dashboard only: "Preview as participant" opens the real interview page on a preview invite. */
  createPreview: customerProcedure
    .meta({ permission: 'campaigns:write' })
    .input(ZCreateScriptPreviewInput)
    .output(ZScriptPreview)
    .mutation(({ ctx, input }) => createScriptPreview(ctx, ctx.auth, input)),
});
