import { ZQuickstartInput, ZQuickstartResult } from '../../../shared/schemas/quickstart.js';
import { apiProcedure, router } from '../../trpc/trpc.js';
import { quickstart } from './quickstart.js';

export const quickstartRouter = router({
  create: apiProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/api/quickstart',
        tags: ['Quickstart'],
        summary: 'Create a published script, a campaign and a share link in one call',
        description: 'Answers 201 with `share_link` (its `url` is what participants open) and the ids of the script and campaign it made.',
      },
      permission: ['campaigns:write', 'invites:write'],
      successStatus: 201,
    })
    .input(ZQuickstartInput)
    .output(ZQuickstartResult)
    .mutation(({ ctx, input }) => quickstart(ctx, ctx.auth, input)),
});
