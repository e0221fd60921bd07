import { z } from 'zod';
import { MEMBER_ROLES, MEMBER_STATUSES, PASSWORD_LIMITS } from '../members.js';
import { PERMISSIONS } from '../permissions.js';
import { ZName, ZPage, ZPaginationQuery, ZPathId, ZTimestamp } from './common.js';
import { ZEmailAddress } from './invites.js';

export const ZMemberRole = z.enum(MEMBER_ROLES).meta({
  description: 'owner: everything; admin: all but billing:write; member: read and write campaigns, invites and sessions, read the rest; viewer: read only.',
});

export const ZMember = z
  .object({
    id: z.string(),
    email: z.string(),
    name: z.string().nullable(),
    role: ZMemberRole,
    status: z.enum(MEMBER_STATUSES).meta({ description: '`invited` until the invitation is accepted (a password set), then `active`.' }),
    invitationExpiresAt: ZTimestamp.nullable().meta({ description: 'While invited: when the invitation link stops working.' }),
    lastSignInAt: ZTimestamp.nullable(),
    createdAt: ZTimestamp,
    updatedAt: ZTimestamp,
  })
  .meta({ id: 'Member' });
export type TMember = z.infer<typeof ZMember>;

export const ZListMembersInput = z.strictObject({ ...ZPaginationQuery });
export type TListMembersInput = z.infer<typeof ZListMembersInput>;
export const ZMemberPage = ZPage(ZMember);

/** Addresses compare without case: `Ana@Example.com` and `ana@example.com` are one member. */
const ZMemberEmail = ZEmailAddress.transform((email) => email.toLowerCase());

export const ZInviteMemberInput = z.strictObject({
  email: ZMemberEmail,
  role: ZMemberRole,
  name: ZName.optional(),
});
export type TInviteMemberInput = z.infer<typeof ZInviteMemberInput>;

export const ZMemberIdInput = z.strictObject({ memberId: ZPathId });
export const ZUpdateMemberInput = z.strictObject({ memberId: ZPathId, role: ZMemberRole });

export const ZPassword = z
  .string()
  .min(PASSWORD_LIMITS.minLength, `must be at least ${PASSWORD_LIMITS.minLength} characters`)
  .max(PASSWORD_LIMITS.maxLength, `must be at most ${PASSWORD_LIMITS.maxLength} characters`);

export const ZAcceptInvitationInput = z.strictObject({
  token: z.string().min(1).max(200),
  password: ZPassword,
  name: ZName.optional(),
});

export const ZSignInInput = z.strictObject({
  email: ZMemberEmail,
  // Any length is checked (and fails) like a wrong password: the rules are for setting one.
  password: z.string().min(1).max(1000),
  organizationId: z.string().min(1).max(255).optional().meta({ description: 'Which organization, when the email belongs to several.' }),
});

export const ZRefreshInput = z.strictObject({ refreshToken: z.string().min(1).max(200) });

export const ZSignedIn = z
  .object({
    accessToken: z.string().meta({ description: 'JWT for `Authorization: Bearer`, valid 15 minutes.' }),
    accessTokenExpiresAt: ZTimestamp,
    refreshToken: z.string().meta({ description: 'One use: `auth.refresh` answers a new pair. Reusing a spent one ends the sign-in.' }),
    refreshTokenExpiresAt: ZTimestamp,
    member: ZMember,
    organization: z.object({ id: z.string(), name: z.string() }),
  })
  .meta({ id: 'SignedIn' });
export type TSignedIn = z.infer<typeof ZSignedIn>;

export const ZMe = z.object({
  member: ZMember,
  organization: z.object({ id: z.string(), name: z.string() }),
  permissions: z.array(z.enum(PERMISSIONS)),
});

export const API_KEY_MODES = ['live', 'test'] as const;
export const ZApiKeyView = z.object({
  id: z.string(),
  name: z.string(),
  mode: z.enum(API_KEY_MODES).meta({ description: "`test`: an `isk_test_` key, acting in the organization's test world." }),
  hint: z.string().meta({ description: 'The last characters of the key, to recognise it.' }),
  permissions: z.array(z.enum(PERMISSIONS)),
  createdAt: ZTimestamp,
  lastUsedAt: ZTimestamp.nullable(),
  expiresAt: ZTimestamp.nullable(),
  revokedAt: ZTimestamp.nullable(),
});
export const ZCreateApiKeyInput = z.strictObject({
  name: ZName,
  permissions: z.array(z.enum(PERMISSIONS)).min(1, 'must name at least one permission'),
  expiresAt: z.iso.datetime({ offset: true }).optional(),
  mode: z.enum(API_KEY_MODES).optional().meta({ description: '`test` makes an `isk_test_` key of the test world; default `live`.' }),
});
export const ZApiKeyIdInput = z.strictObject({ apiKeyId: ZPathId });
