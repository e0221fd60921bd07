import { z } from 'zod';
import { MAX_EXPIRES_IN_SECONDS, ZExpiresIn } from '../durations.js';
import { ZEmailTemplateName } from './campaigns.js';
import { ZInterviewLanguage, ZMetadata, ZPage, ZPaginationQuery, ZPathId, ZTimestamp } from './common.js';

export const INVITE_STATUSES = ['pending', 'started', 'completed', 'expired', 'cancelled'] as const;
export type TInviteStatus = (typeof INVITE_STATUSES)[number];

/**
 * `not_sent`: sendEmail was false (or the invite came from a share link). `queued` → `sent`, or
 * `failed` after the retries, or `bounced` when the mail server refused the address outright.
 */
export const EMAIL_STATUSES = ['not_sent', 'queued', 'sent', 'failed', 'bounced'] as const;
export type TEmailStatus = (typeof EMAIL_STATUSES)[number];

export const INVITE_LIMITS = { maxBulk: 500, maxEmailLength: 254, maxNameLength: 100 } as const;

/** Relative expiry when neither the request nor the campaign's inviteDefaults sets one. */
export const DEFAULT_INVITE_EXPIRES_IN = '7d';

export const ZEmailAddress = z
  .email({ message: 'must be an email address' })
  .max(INVITE_LIMITS.maxEmailLength, `must be at most ${INVITE_LIMITS.maxEmailLength} characters`);

const ZParticipantName = z.string().trim().min(1, 'must not be empty').max(INVITE_LIMITS.maxNameLength);

/** An absolute expiry: ISO 8601 with a time zone, in the future, at most 365 days ahead. */
export const ZFutureDateTime = z.iso
  .datetime({ offset: true, message: 'must be an ISO 8601 date-time with a time zone, e.g. 2026-12-01T09:00:00Z' })
  // A malformed value has its own message already; these two speak only about well-formed ones.
  .refine((value) => Number.isNaN(Date.parse(value)) || Date.parse(value) > Date.now(), 'must be in the future')
  .refine((value) => Number.isNaN(Date.parse(value)) || Date.parse(value) <= Date.now() + MAX_EXPIRES_IN_SECONDS * 1000, 'must be at most 365 days ahead');

export const ZInvite = z
  .object({
    id: z.string().meta({ example: 'inv_4fS0m3Ex4mpl3Id0000000' }),
    campaignId: z.string(),
    shareLinkId: z.string().nullable().meta({ description: 'Set when a share-link visit created the invite.' }),
    token: z.string().meta({ description: 'Participant credential (longer than an id, also `inv_`); revoked when the invite is cancelled.' }),
    email: z.string().nullable().meta({ description: 'null for anonymous invites created by share links.' }),
    name: z.string().nullable(),
    language: z.string().nullable().meta({ description: "Interview language of this invite; null: the campaign's, else the script's, else en." }),
    status: z.enum(INVITE_STATUSES),
    inviteUrl: z.string().meta({ description: "Participant interview link: the organization's custom domain when set, else PUBLIC_URL." }),
    emailStatus: z.enum(EMAIL_STATUSES),
    emailTemplate: z
      .string()
      .nullable()
      .meta({ description: 'Template of the invitation email (also used by resend); null for share-link invites, which have no address.' }),
    expiresAt: ZTimestamp,
    metadata: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
    startedAt: ZTimestamp.nullable(),
    completedAt: ZTimestamp.nullable(),
    cancelledAt: ZTimestamp.nullable(),
    emailSentAt: ZTimestamp.nullable(),
    createdAt: ZTimestamp,
    updatedAt: ZTimestamp,
  })
  .meta({ id: 'Invite' });
export type TInvite = z.infer<typeof ZInvite>;

const inviteExpiryFields = {
  expiresIn: ZExpiresIn.optional().meta({ description: "Overrides the campaign's inviteDefaults.expiresIn (default 7d)." }),
  expiresAt: ZFutureDateTime.optional().meta({ description: 'Absolute expiry; wins over expiresIn. Must be in the future.' }),
  emailTemplate: ZEmailTemplateName.optional().meta({ description: "Template id; default: the campaign's inviteDefaults.emailTemplate, else `default`." }),
};

export const ZCreateInviteInput = z.strictObject({
  campaignId: ZPathId,
  email: ZEmailAddress,
  name: ZParticipantName.optional(),
  language: ZInterviewLanguage.optional().meta({
    description: "The participant's language (en, nl, de, fr, es; nl-BE is held in Dutch): the interview, its page and its email. Default: the campaign's.",
  }),
  sendEmail: z.boolean().default(true),
  ...inviteExpiryFields,
  metadata: ZMetadata.optional(),
});
export type TCreateInviteInput = z.infer<typeof ZCreateInviteInput>;

export const ZBulkInviteItem = z
  .strictObject({ email: ZEmailAddress, name: ZParticipantName.optional(), language: ZInterviewLanguage.optional(), metadata: ZMetadata.optional() })
  .meta({ id: 'BulkInviteItem' });

export const ZBulkCreateInvitesInput = z.strictObject({
  campaignId: ZPathId,
  invites: z
    .array(ZBulkInviteItem)
    .min(1, 'must contain at least one invite')
    .max(INVITE_LIMITS.maxBulk, `must contain at most ${INVITE_LIMITS.maxBulk} invites`)
    .check(
      // Two invites for one address in one request is almost always a mistake in the caller's list.
      // `when` runs this even when other items are invalid, so one response names every bad item.
      z.superRefine(
        (items: unknown[], ctx) => {
          const firstIndexByEmail = new Map<string, number>();
          items.forEach((item, index) => {
            const email = (item as { email?: unknown } | null)?.email;
            if (typeof email !== 'string') return;
            const key = email.toLowerCase();
            const first = firstIndexByEmail.get(key);
            if (first === undefined) firstIndexByEmail.set(key, index);
            else ctx.addIssue({ code: 'custom', path: [index, 'email'], message: `duplicates invites[${first}].email` });
          });
        },
        { when: (payload) => Array.isArray(payload.value) && payload.value.length <= INVITE_LIMITS.maxBulk },
      ),
    ),
  sendEmail: z.boolean().default(true),
  ...inviteExpiryFields,
});
export type TBulkCreateInvitesInput = z.infer<typeof ZBulkCreateInvitesInput>;

export const ZBulkCreateInvitesResult = z
  .object({
    data: z.array(ZInvite).meta({ description: 'The created invites, in the order of the request.' }),
    count: z.number().int(),
  })
  .meta({ id: 'BulkInviteResult' });
export type TBulkCreateInvitesResult = z.infer<typeof ZBulkCreateInvitesResult>;

export const ZListInvitesInput = z.strictObject({
  campaignId: ZPathId,
  status: z.enum(INVITE_STATUSES).optional(),
  email: z.string().max(INVITE_LIMITS.maxEmailLength).optional().meta({ description: 'Exact address, case-insensitive.' }),
  shareLinkId: z
    .string()
    .min(1)
    .max(255)
    .optional()
    .meta({ description: "Only the invites that visits to this share link created (the link's respondents and visitors)." }),
  ...ZPaginationQuery,
});
export type TListInvitesInput = z.infer<typeof ZListInvitesInput>;

export const ZInvitePage = ZPage(ZInvite);

export const ZInviteIdInput = z.strictObject({ inviteId: ZPathId });
