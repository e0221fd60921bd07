import { z } from 'zod';
import { PLAN_NAMES } from '../plans.js';
import { ZHexColor, ZName, ZTimestamp } from './common.js';
import { ZEmailAddress } from './invites.js';

const ZCreditsLowThreshold = z.number().int().min(1).max(100_000_000).meta({
  description:
    'Whole credits: a `credits.low` event is published when a charge takes the credit balance (not less held credits) from this or more to below it. Absent: none.',
});

/** Branding, email and alert settings; used by invitation emails, participant pages and `credits.low`. */
export const ZOrganizationSettings = z
  .strictObject({
    brandColor: ZHexColor.optional().meta({ description: 'Accent colour of emails and participant pages.' }),
    replyToEmail: ZEmailAddress.optional().meta({ description: 'Reply-To of invitation emails.' }),
    creditsLowThreshold: ZCreditsLowThreshold.optional(),
  })
  .meta({ id: 'OrganizationSettings' });
export type TOrganizationSettings = z.infer<typeof ZOrganizationSettings>;

/** A host name such as `interviews.acme.com`: lowercase labels, at least one dot, no scheme, port or path. */
export const ZCustomDomain = z
  .string()
  .trim()
  .toLowerCase()
  .max(253)
  .regex(
    /^(?=.*[a-z])(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z](?:[a-z0-9-]{0,61}[a-z0-9])?$/,
    'must be a host name such as interviews.example.com (no scheme, port or path)',
  );

export const ZLogoUrl = z.url({ protocol: /^https$/, message: 'must be an https:// URL' }).max(2048);

export const ZOrganization = z
  .object({
    id: z.string(),
    name: z.string(),
    logo: z.string().nullable().meta({ description: 'Logo URL for white-label branding (emails, participant pages).' }),
    domain: z.string().nullable().meta({ description: 'Custom domain for interview links; point it at this service behind HTTPS.' }),
    plan: z.enum(PLAN_NAMES),
    settings: ZOrganizationSettings,
    createdAt: ZTimestamp,
    updatedAt: ZTimestamp,
  })
  .meta({ id: 'Organization' });
export type TOrganization = z.infer<typeof ZOrganization>;

export const ZUpdateOrganizationInput = z.strictObject({
  name: ZName.optional(),
  logo: ZLogoUrl.nullish(),
  domain: ZCustomDomain.nullish(),
  settings: z
    .strictObject({
      brandColor: ZHexColor.nullable().optional(),
      replyToEmail: ZEmailAddress.nullable().optional(),
      creditsLowThreshold: ZCreditsLowThreshold.nullable().optional(),
    })
    .optional()
    .meta({ description: 'Merge patch: given keys replace, `null` removes a key.' }),
});
export type TUpdateOrganizationInput = z.infer<typeof ZUpdateOrganizationInput>;

export const ZDeletedTestData = z
  .object({
    deleted: z
      .object({
        campaigns: z.number().int(),
        invites: z.number().int(),
        sessions: z.number().int(),
        events: z.number().int(),
      })
      .meta({ description: "What went with the test world's data (its scripts, projects, results, deliveries and test credits too)." }),
  })
  .meta({ id: 'DeletedTestData' });
export type TDeletedTestData = z.infer<typeof ZDeletedTestData>;
