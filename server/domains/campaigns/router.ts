import { z } from 'zod';
import {
  ZCampaign,
  ZCampaignIdInput,
  ZCampaignPage,
  ZCreateCampaignInput,
  ZListCampaignsInput,
  ZUpdateCampaignInput,
} from '../../../shared/schemas/campaigns.js';
import { apiProcedure, router } from '../../trpc/trpc.js';
import { archiveCampaign, pauseCampaign, resumeCampaign } from './change-campaign-status.js';
import { createCampaign } from './create-campaign.js';
import { deleteCampaign } from './delete-campaign.js';
import { getCampaign } from './get-campaign.js';
import { listCampaigns } from './list-campaigns.js';
import { updateCampaign } from './update-campaign.js';

const tags = ['Campaigns'];

export const campaignsRouter = router({
  create: apiProcedure
    .meta({
      openapi: { method: 'POST', path: '/v1/campaigns', tags, summary: 'Create a campaign', description: 'Needs a script with a published version.' },
      permission: 'campaigns:write',
      successStatus: 201,
      location: '/v1/campaigns/{id}',
      errors: ['SCRIPT_NOT_PUBLISHED', 'SCRIPT_ARCHIVED'],
    })
    .input(ZCreateCampaignInput)
    .output(ZCampaign)
    .mutation(({ ctx, input }) => createCampaign(ctx, ctx.auth, input)),

  list: apiProcedure
    .meta({ openapi: { method: 'GET', path: '/v1/campaigns', tags, summary: 'List campaigns' }, permission: 'campaigns:read' })
    .input(ZListCampaignsInput)
    .output(ZCampaignPage)
    .query(({ ctx, input }) => listCampaigns(ctx, ctx.auth, input)),

  get: apiProcedure
    .meta({ openapi: { method: 'GET', path: '/v1/campaigns/{campaignId}', tags, summary: 'Get a campaign' }, permission: 'campaigns:read' })
    .input(ZCampaignIdInput)
    .output(ZCampaign)
    .query(({ ctx, input }) => getCampaign(ctx, ctx.auth, input)),

  update: apiProcedure
    .meta({
      openapi: { method: 'PATCH', path: '/v1/campaigns/{campaignId}', tags, summary: 'Update a campaign' },
      permission: 'campaigns:write',
      errors: ['CAMPAIGN_ARCHIVED', 'SCRIPT_NOT_PUBLISHED', 'SCRIPT_ARCHIVED'],
    })
    .input(ZUpdateCampaignInput)
    .output(ZCampaign)
    .mutation(({ ctx, input }) => updateCampaign(ctx, ctx.auth, input)),

  pause: apiProcedure
    .meta({
      openapi: { method: 'POST', path: '/v1/campaigns/{campaignId}/pause', tags, summary: 'Pause a campaign' },
      permission: 'campaigns:write',
      errors: ['CAMPAIGN_ARCHIVED'],
    })
    .input(ZCampaignIdInput)
    .output(ZCampaign)
    .mutation(({ ctx, input }) => pauseCampaign(ctx, ctx.auth, input)),

  resume: apiProcedure
    .meta({
      openapi: { method: 'POST', path: '/v1/campaigns/{campaignId}/resume', tags, summary: 'Resume a paused campaign' },
      permission: 'campaigns:write',
      errors: ['CAMPAIGN_ARCHIVED'],
    })
    .input(ZCampaignIdInput)
    .output(ZCampaign)
    .mutation(({ ctx, input }) => resumeCampaign(ctx, ctx.auth, input)),

  archive: apiProcedure
    .meta({
      openapi: { method: 'POST', path: '/v1/campaigns/{campaignId}/archive', tags, summary: 'Archive a campaign (final)' },
      permission: 'campaigns:write',
    })
    .input(ZCampaignIdInput)
    .output(ZCampaign)
    .mutation(({ ctx, input }) => archiveCampaign(ctx, ctx.auth, input)),

  delete: apiProcedure
    .meta({
      openapi: {
        method: 'DELETE',
        path: '/v1/campaigns/{campaignId}',
        tags,
        summary: 'Delete a campaign',
        description: 'With its invites and sessions. Refused with 409 CAMPAIGN_HAS_ACTIVE_SESSIONS while an interview is under way.',
      },
      permission: 'campaigns:write',
      successStatus: 204,
      errors: ['CAMPAIGN_HAS_ACTIVE_SESSIONS'],
    })
    .input(ZCampaignIdInput)
    .output(z.void())
    .mutation(({ ctx, input }) => deleteCampaign(ctx, ctx.auth, input)),
});
