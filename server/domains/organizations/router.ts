import { z } from 'zod';
import { ZDeletedTestData, ZOrganization, ZUpdateOrganizationInput } from '../../../shared/schemas/organization.js';
import { apiProcedure, router } from '../../trpc/trpc.js';
import { deleteTestData } from './delete-test-data.js';
import { getOrganization } from './get-organization.js';
import { updateOrganization } from './update-organization.js';

const tags = ['Organization'];

export const organizationRouter = router({
  get: apiProcedure
    .meta({ openapi: { method: 'GET', path: '/v1/organization', tags, summary: "Get the API key's organization" }, permission: 'organization:read' })
    .input(z.strictObject({}))
    .output(ZOrganization)
    .query(({ ctx }) => getOrganization(ctx, ctx.auth)),

  update: apiProcedure
    .meta({
      openapi: {
        method: 'PATCH',
        path: '/v1/organization',
        tags,
        summary: 'Update name, logo, custom domain or settings',
        description: 'With `domain` set, invite and share links use `https://{domain}`; point the domain at this service behind HTTPS.',
      },
      permission: 'organization:write',
      errors: ['DOMAIN_IN_USE', 'LIVE_MODE_ONLY'],
    })
    .input(ZUpdateOrganizationInput)
    .output(ZOrganization)
    .mutation(({ ctx, input }) => updateOrganization(ctx, ctx.auth, input)),

  deleteTestData: apiProcedure
    .meta({
      openapi: {
        method: 'DELETE',
        path: '/v1/test-data',
        tags,
        summary: "Delete the organization's test data",
        description:
          "Test mode: deletes everything of the organization's test world (campaigns, scripts, projects, invites, sessions and results, events and deliveries, test credits) in one transaction and keeps its setup: `isk_test_` keys and test webhook endpoints go on working. Live data is never touched. Called with a live key or a test key, it deletes the same test world.",
      },
      permission: 'organization:write',
    })
    .input(z.strictObject({}))
    .output(ZDeletedTestData)
    .mutation(({ ctx }) => deleteTestData(ctx, ctx.auth)),
});
