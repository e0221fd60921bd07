import { ZCreateShareLinkInput, ZListShareLinksInput, ZShareLink, ZShareLinkIdInput, ZShareLinkPage } from '../../../shared/schemas/share-links.js';
import { apiProcedure, router } from '../../trpc/trpc.js';
import { createShareLink } from './create-share-link.js';
import { closeShareLink } from './close-share-link.js';
import { getShareLink } from './get-share-link.js';
import { listShareLinks } from './list-share-links.js';

const tags = ['Share links'];

export const shareLinksRouter = router({
  create: apiProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/v1/campaigns/{campaignId}/share-links',
        tags,
        summary: 'Create a share link',
        description: "Each visit to the link's `/join/{code}` URL creates a fresh anonymous invite, up to `maxRespondents` participants who start.",
      },
      permission: 'invites:write',
      successStatus: 201,
      location: '/v1/share-links/{id}',
      errors: ['CAMPAIGN_NOT_ACTIVE'],
    })
    .input(ZCreateShareLinkInput)
    .output(ZShareLink)
    .mutation(({ ctx, input }) => createShareLink(ctx, ctx.auth, input)),

  list: apiProcedure
    .meta({
      openapi: { method: 'GET', path: '/v1/campaigns/{campaignId}/share-links', tags, summary: "List a campaign's share links" },
      permission: 'invites:read',
    })
    .input(ZListShareLinksInput)
    .output(ZShareLinkPage)
    .query(({ ctx, input }) => listShareLinks(ctx, ctx.auth, input)),

  get: apiProcedure
    .meta({ openapi: { method: 'GET', path: '/v1/share-links/{shareLinkId}', tags, summary: 'Get a share link' }, permission: 'invites:read' })
    .input(ZShareLinkIdInput)
    .output(ZShareLink)
    .query(({ ctx, input }) => getShareLink(ctx, ctx.auth, input)),

  close: apiProcedure
    .meta({
      openapi: { method: 'POST', path: '/v1/share-links/{shareLinkId}/close', tags, summary: 'Close a share link (final)' },
      permission: 'invites:write',
    })
    .input(ZShareLinkIdInput)
    .output(ZShareLink)
    .mutation(({ ctx, input }) => closeShareLink(ctx, ctx.auth, input)),
});
