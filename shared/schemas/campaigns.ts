import { z } from 'zod';
import { ZExpiresIn } from '../durations.js';
import { ZInterviewLanguage, ZMetadata, ZMetadataPatch, ZName, ZPage, ZPaginationQuery, ZPathId, ZSortOrder, ZTimestamp } from './common.js';
import { ZTurnTaking, ZTurnTakingPatch } from './turn-taking.js';

export const CAMPAIGN_STATUSES = ['active', 'paused', 'archived'] as const;
export type TCampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

export const CAMPAIGN_SORT_FIELDS = ['name', 'createdAt', 'updatedAt'] as const;

/** Named email templates are slugs; the invites feature checks them against the registered set. */
export const ZEmailTemplateName = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, 'must be a template id: lowercase letters, digits, _ and -');

export const ZCampaignSettings = z
  .strictObject({
    voice: z.string().min(1).max(64).optional(),
    language: ZInterviewLanguage.optional(),
    maxDuration: z.number().int().min(60).max(14400).optional().meta({ description: 'Seconds, 60 to 14400.' }),
    requireConsent: z.boolean().optional(),
    turnTaking: ZTurnTaking.optional().meta({
      description:
        "Voice mode's end of turn and barge-in; each key wins over the script's `settings.turnTaking`, then the defaults (endOfTurnMs 700, pauseMs 2000, bargeIn true).",
    }),
  })
  .meta({ id: 'CampaignSettings' });
export type TCampaignSettings = z.infer<typeof ZCampaignSettings>;

export const ZInviteDefaults = z
  .strictObject({
    expiresIn: ZExpiresIn.optional(),
    emailTemplate: ZEmailTemplateName.optional(),
  })
  .meta({ id: 'InviteDefaults' });
export type TInviteDefaults = z.infer<typeof ZInviteDefaults>;

/** In updates, settings objects are merged key by key; a `null` value removes the key. */
const ZCampaignSettingsPatch = z.strictObject({
  voice: ZCampaignSettings.shape.voice.unwrap().nullable().optional(),
  language: ZInterviewLanguage.nullable().optional(),
  maxDuration: ZCampaignSettings.shape.maxDuration.unwrap().nullable().optional(),
  requireConsent: z.boolean().nullable().optional(),
  turnTaking: ZTurnTakingPatch.nullable().optional(),
});
const ZInviteDefaultsPatch = z.strictObject({
  expiresIn: ZExpiresIn.nullable().optional(),
  emailTemplate: ZEmailTemplateName.nullable().optional(),
});

export const ZCampaignStats = z
  .object({
    totalInvites: z.number().int(),
    completedSessions: z.number().int(),
    averageDuration: z.number().meta({ description: 'Seconds, over completed sessions.' }),
  })
  .meta({ id: 'CampaignStats' });
export type TCampaignStats = z.infer<typeof ZCampaignStats>;

export const ZCampaign = z
  .object({
    id: z.string().meta({ example: 'cam_4fS0m3Ex4mpl3Id0000000' }),
    name: z.string(),
    participantTitle: z.string().nullable().meta({ description: 'The title participants see; null: they see `name`.' }),
    description: z.string().nullable(),
    scriptId: z.string(),
    projectId: z.string().nullable(),
    status: z.enum(CAMPAIGN_STATUSES),
    settings: ZCampaignSettings,
    inviteDefaults: ZInviteDefaults,
    metadata: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
    stats: ZCampaignStats,
    createdAt: ZTimestamp,
    updatedAt: ZTimestamp,
  })
  .meta({ id: 'Campaign' });
export type TCampaign = z.infer<typeof ZCampaign>;

const ZCampaignDescription = z.string().max(500, 'must be at most 500 characters');

/** What participants see as the study's title (the name stays internal); null or absent: the name. */
export const ZParticipantTitle = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(200, 'must be at most 200 characters')
  .meta({ description: 'The title participants see (interview page, invitation email); null: the campaign name.' });

export const ZCreateCampaignInput = z.strictObject({
  name: ZName,
  participantTitle: ZParticipantTitle.nullish(),
  description: ZCampaignDescription.nullish(),
  scriptId: z.string().min(1).max(255),
  projectId: z.string().min(1).max(255).nullish(),
  settings: ZCampaignSettings.optional(),
  inviteDefaults: ZInviteDefaults.optional(),
  metadata: ZMetadata.optional(),
});
export type TCreateCampaignInput = z.infer<typeof ZCreateCampaignInput>;

/** Partial update; status changes go through pause, resume and archive. */
export const ZUpdateCampaignInput = z.strictObject({
  campaignId: ZPathId,
  name: ZName.optional(),
  participantTitle: ZParticipantTitle.nullish(),
  description: ZCampaignDescription.nullish(),
  scriptId: z.string().min(1).max(255).optional(),
  projectId: z.string().min(1).max(255).nullish(),
  settings: ZCampaignSettingsPatch.optional(),
  inviteDefaults: ZInviteDefaultsPatch.optional(),
  metadata: ZMetadataPatch.optional(),
});
export type TUpdateCampaignInput = z.infer<typeof ZUpdateCampaignInput>;

export const ZListCampaignsInput = z.strictObject({
  status: z.enum(CAMPAIGN_STATUSES).optional(),
  projectId: z.string().min(1).max(255).optional(),
  search: z.string().max(100).optional().meta({ description: 'Case-insensitive match on the name.' }),
  sort: z.enum(CAMPAIGN_SORT_FIELDS).default('createdAt').meta({ description: 'Sort field (default createdAt).' }),
  order: ZSortOrder,
  ...ZPaginationQuery,
});
export type TListCampaignsInput = z.infer<typeof ZListCampaignsInput>;

export const ZCampaignPage = ZPage(ZCampaign);

export const ZCampaignIdInput = z.strictObject({ campaignId: ZPathId });
