import type { CustomerAuth, MemberAuth } from '../common/caller.js';
import { z } from 'zod';
import { ZMe, ZRefreshInput, ZSignedIn, ZSignInInput } from '../../../shared/schemas/members.js';
import { AppError } from '../../errors.js';

import { customerProcedure, publicProcedure, router } from '../../trpc/trpc.js';
import { clientOf } from '../common/client-info.js';
import { getSignedInMember } from './get-signed-in-member.js';
import { refreshMemberSession } from './refresh-session.js';
import { signIn } from './sign-in.js';
import { signOut } from './sign-out.js';

function asMember(auth: CustomerAuth): MemberAuth {
  if (auth.kind !== 'member') throw new AppError('INSUFFICIENT_PERMISSIONS', 'Only a signed-in member can do this.', { required: 'member' });
  return auth;
}

/** Sign-in for first-party frontends (tRPC only): a 15-minute access JWT and a rotating refresh token. */
export const authRouter = router({
  signIn: publicProcedure
    .meta({ public: true, errors: ['INVALID_CREDENTIALS', 'TOO_MANY_SIGN_IN_ATTEMPTS'] })
    .input(ZSignInInput)
    .output(ZSignedIn)
    .mutation(({ ctx, input }) => signIn(ctx, { ...input, client: clientOf(ctx.req) })),

  refresh: publicProcedure
    .meta({ public: true, errors: ['INVALID_REFRESH_TOKEN'] })
    .input(ZRefreshInput)
    .output(ZSignedIn)
    .mutation(({ ctx, input }) => refreshMemberSession(ctx, { refreshToken: input.refreshToken, client: clientOf(ctx.req) })),

  signOut: customerProcedure
    .meta({ permission: 'organization:read', membersOnly: true })
    .input(z.strictObject({ everywhere: z.boolean().default(false) }))
    .output(z.object({ signedOutSessions: z.number().int() }))
    .mutation(({ ctx, input }) => signOut(ctx, asMember(ctx.auth), input)),

  me: customerProcedure
    .meta({ permission: 'organization:read', membersOnly: true })
    .input(z.strictObject({}))
    .output(ZMe)
    .query(({ ctx }) => getSignedInMember(ctx, asMember(ctx.auth))),
});
