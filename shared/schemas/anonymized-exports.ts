import { z } from 'zod';
import { ZPathId, ZTimestamp } from './common.js';

/** Sessions listed by id in one anonymized export, at most. */
export const ANONYMIZED_EXPORT_MAX_SESSION_IDS = 1000;

/** How long the link (and the file behind it) lives. */
export const ANONYMIZED_EXPORT_TTL_SECONDS = 3600;

const SCOPE_FIELDS = ['campaignId', 'projectId', 'sessionIds'] as const;

/** Exactly one of `campaignId`, `projectId` or `sessionIds`: the finished sessions of a campaign, of a project's campaigns, or these. */
export const ZCreateAnonymizedExportInput = z
  .strictObject({
    campaignId: ZPathId.optional(),
    projectId: ZPathId.optional(),
    sessionIds: z
      .array(ZPathId)
      .min(1, 'must list at least one session')
      .max(ANONYMIZED_EXPORT_MAX_SESSION_IDS, `must list at most ${ANONYMIZED_EXPORT_MAX_SESSION_IDS} sessions`)
      .optional(),
    format: z.enum(['json', 'csv']).default('json'),
  })
  .superRefine((input, ctx) => {
    const given = SCOPE_FIELDS.filter((field) => input[field] !== undefined);
    if (given.length === 0) ctx.addIssue({ code: 'custom', path: ['campaignId'], message: 'one of campaignId, projectId or sessionIds is required' });
    for (const extra of given.slice(1))
      ctx.addIssue({ code: 'custom', path: [extra], message: `give only one of campaignId, projectId or sessionIds (${given[0]} is given)` });
  });
export type TCreateAnonymizedExportInput = z.infer<typeof ZCreateAnonymizedExportInput>;

export const ZAnonymizedExport = z.object({
  id: z.string(),
  /** Signed download link: no credentials needed, valid one hour. */
  url: z.string(),
  expiresAt: ZTimestamp,
  format: z.enum(['json', 'csv']),
  sessionCount: z.number().int(),
  /** Bytes. */
  size: z.number().int(),
});
export type TAnonymizedExport = z.infer<typeof ZAnonymizedExport>;
