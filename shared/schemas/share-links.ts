import { z } from 'zod';
import { ZExpiresIn } from '../durations.js';
import { ZPage, ZPaginationQuery, ZPathId, ZTimestamp } from './common.js';
import { ZFutureDateTime } from './invites.js';

/**
 * `active` accepts visitors. `full`: maxRespondents participants have started. `expired`:
 * expiresAt passed. `closed`: closed through the API, or its campaign is archived.
 */
export const SHARE_LINK_STATUSES = ['active', 'full', 'expired', 'closed'] as const;
export type TShareLinkStatus = (typeof SHARE_LINK_STATUSES)[number];

export const MAX_RESPONDENTS_LIMIT = 1_000_000;

export const ZShareLink = z
  .object({
    id: z.string().meta({ example: 'shl_4fS0m3Ex4mpl3Id0000000' }),
    campaignId: z.string(),
    code: z.string(),
    url: z.string().meta({ description: "`/join/{code}` on the organization's custom domain when set, else PUBLIC_URL." }),
    status: z.enum(SHARE_LINK_STATUSES),
    maxRespondents: z.number().int().nullable().meta({ description: 'Cap on participants who start; null: no cap.' }),
    respondents: z.number().int().meta({ description: 'Participants who started an interview through this link.' }),
    expiresAt: ZTimestamp.nullable(),
    closedAt: ZTimestamp.nullable(),
    createdAt: ZTimestamp,
    updatedAt: ZTimestamp,
  })
  .meta({ id: 'ShareLink' });
export type TShareLink = z.infer<typeof ZShareLink>;

const ZMaxRespondents = z.number().int().min(1).max(MAX_RESPONDENTS_LIMIT);

/** The options of a new share link: also what quickstart's `distribution` takes. */
export const ZShareLinkOptions = {
  maxRespondents: ZMaxRespondents.nullish(),
  expiresIn: ZExpiresIn.optional().meta({ description: 'Relative expiry of the link; unset: the link does not expire.' }),
  expiresAt: ZFutureDateTime.optional().meta({ description: 'Absolute expiry of the link; wins over expiresIn.' }),
};

export const ZCreateShareLinkInput = z.strictObject({ campaignId: ZPathId, ...ZShareLinkOptions });
export type TShareLinkOptions = Omit<z.infer<typeof ZCreateShareLinkInput>, 'campaignId'>;

export const ZListShareLinksInput = z.strictObject({ campaignId: ZPathId, ...ZPaginationQuery });
export type TListShareLinksInput = z.infer<typeof ZListShareLinksInput>;
export const ZShareLinkPage = ZPage(ZShareLink);
export const ZShareLinkIdInput = z.strictObject({ shareLinkId: ZPathId });
