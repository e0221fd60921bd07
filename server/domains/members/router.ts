import { z } from 'zod';
import {
  ZAcceptInvitationInput,
  ZInviteMemberInput,
  ZMember,
  ZMemberIdInput,
  ZListMembersInput,
  ZMemberPage,
  ZSignedIn,
  ZUpdateMemberInput,
} from '../../../shared/schemas/members.js';
import { customerProcedure, publicProcedure, router } from '../../trpc/trpc.js';
import { clientOf } from '../common/client-info.js';
import { acceptInvitation } from './accept-invitation.js';
import { inviteMember } from './invite-member.js';
import { listMembers } from './list-members.js';
import { removeMember } from './remove-member.js';
import { updateMemberRole } from './update-member-role.js';

const tags = ['Organization'];

/** The organization's people (design.md "Records of the product": Member). */
export const membersRouter = router({
  list: customerProcedure
    .meta({
      openapi: { method: 'GET', path: '/v1/organization/members', tags, summary: 'List members and invitations, with their roles' },
      permission: 'organization:read',
    })
    .input(ZListMembersInput)
    .output(ZMemberPage)
    .query(({ ctx, input }) => listMembers(ctx, ctx.auth, input)),

  invite: customerProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/v1/organization/members',
        tags,
        summary: 'Invite a member',
        description:
          'Emails a one-use link, valid 7 days, where the invitee sets a password. Inviting an owner needs every permission (an owner, or a key with all of them).',
      },
      permission: 'organization:write',
      successStatus: 201,
      errors: ['MEMBER_EXISTS', 'LIVE_MODE_ONLY'],
    })
    .input(ZInviteMemberInput)
    .output(ZMember)
    .mutation(async ({ ctx, input }) => (await inviteMember(ctx, ctx.auth, input)).member),

  update: customerProcedure
    .meta({
      openapi: {
        method: 'PATCH',
        path: '/v1/organization/members/{memberId}',
        tags,
        summary: "Change a member's role",
        description:
          "Takes effect on the member's next request. Making, changing or removing an owner needs every permission; the last active owner cannot be demoted (409 LAST_OWNER).",
      },
      permission: 'organization:write',
      errors: ['LAST_OWNER'],
    })
    .input(ZUpdateMemberInput)
    .output(ZMember)
    .mutation(({ ctx, input }) => updateMemberRole(ctx, ctx.auth, input)),

  remove: customerProcedure
    .meta({
      openapi: {
        method: 'DELETE',
        path: '/v1/organization/members/{memberId}',
        tags,
        summary: 'Remove a member or withdraw an invitation',
        description: 'Ends every sign-in of the member at once. The last active owner cannot be removed (409 LAST_OWNER).',
      },
      permission: 'organization:write',
      successStatus: 204,
      errors: ['LAST_OWNER'],
    })
    .input(ZMemberIdInput)
    .output(z.void())
    .mutation(({ ctx, input }) => removeMember(ctx, ctx.auth, input)),

  /** tRPC only: the invitation link's page posts here (or to `/members/accept`). */
  acceptInvitation: publicProcedure
    .meta({ public: true, errors: ['INVALID_INVITATION'] })
    .input(ZAcceptInvitationInput)
    .output(ZSignedIn)
    .mutation(({ ctx, input }) => acceptInvitation(ctx, { ...input, client: clientOf(ctx.req) })),
});
