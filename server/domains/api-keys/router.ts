import { z } from 'zod';
import { ZApiKeyIdInput, ZApiKeyView, ZCreateApiKeyInput } from '../../../shared/schemas/members.js';
import { customerProcedure, router } from '../../trpc/trpc.js';
import { createApiKeyAs } from './create-api-key.js';
import { describeApiKey, listApiKeys } from './list-api-keys.js';
import { revokeApiKey } from './revoke-api-key.js';

/**
 * API keys, managed by signed-in owners and admins (tRPC only; the admin CLI does the same for
 * operators). A key never holds a permission its creator lacks, and a key cannot mint keys.
 */
export const apiKeysRouter = router({
  list: customerProcedure
    .meta({ permission: 'organization:write', membersOnly: true })
    .input(z.strictObject({}))
    .output(z.object({ data: z.array(ZApiKeyView) }))
    .query(async ({ ctx }) => ({ data: (await listApiKeys(ctx, ctx.auth)).map(describeApiKey) })),

  create: customerProcedure
    .meta({ permission: 'organization:write', membersOnly: true })
    .input(ZCreateApiKeyInput)
    .output(z.object({ apiKey: ZApiKeyView, secret: z.string().meta({ description: 'The key itself: shown this once, stored only as a hash.' }) }))
    .mutation(async ({ ctx, input }) => {
      const { apiKey, secret } = await createApiKeyAs(ctx, ctx.auth, input);
      return { apiKey: describeApiKey(apiKey), secret };
    }),

  revoke: customerProcedure
    .meta({ permission: 'organization:write', membersOnly: true })
    .input(ZApiKeyIdInput)
    .output(ZApiKeyView)
    .mutation(async ({ ctx, input }) => describeApiKey(await revokeApiKey(ctx, ctx.auth, input))),
});
