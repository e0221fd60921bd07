import { z } from 'zod';
import { ZCampaignResults, ZResultsFilter } from './campaign-results.js';
import { ZAuthor, ZCursorPage, ZCursorPageInput, ZPathId, ZTimestamp } from './common.js';
import { QUESTION_TYPES } from './scripts.js';

/**
 * Stakeholder links (issue 31): a read-only share of a campaign's results, a collection or a
 * session at an unguessable URL that works without an account, expires (30 days unless told, 365
 * at most), can be revoked at once, and records each time it is read.
 */

export const STAKEHOLDER_LINK_KINDS = ['campaign', 'collection', 'session'] as const;
export type TStakeholderLinkKind = (typeof STAKEHOLDER_LINK_KINDS)[number];

export const STAKEHOLDER_LINK_LIMITS = { defaultExpiresInDays: 30, maxExpiresInDays: 365, maxOpensListed: 100, maxSharedSessions: 100 } as const;

/** What a link shares: a campaign's results, a collection or a session of the caller's organization. */
export const ZStakeholderTarget = z.strictObject({ kind: z.enum(STAKEHOLDER_LINK_KINDS), id: ZPathId });
export type TStakeholderTarget = z.infer<typeof ZStakeholderTarget>;

export const ZCreateStakeholderLinkInput = z.strictObject({
  target: ZStakeholderTarget,
  /** Show the transcripts (a campaign's sessions, a session's conversation, the whole answer a quote comes from). */
  includeTranscripts: z.boolean(),
  /** Every text through the PII redactor and the participant's identity scrubbed; no participant names or emails. */
  redactPii: z.boolean(),
  expiresInDays: z.number().int().min(1).max(STAKEHOLDER_LINK_LIMITS.maxExpiresInDays).default(STAKEHOLDER_LINK_LIMITS.defaultExpiresInDays),
});
export type TCreateStakeholderLinkInput = z.infer<typeof ZCreateStakeholderLinkInput>;

/** `active` until it expires or is revoked; revoked wins over expired. */
export const STAKEHOLDER_LINK_STATUSES = ['active', 'expired', 'revoked'] as const;

export const ZStakeholderLink = z.object({
  id: z.string(),
  target: z.object({
    kind: z.enum(STAKEHOLDER_LINK_KINDS),
    id: z.string(),
    /** The campaign's or collection's name, or the session's campaign name; null once the target is deleted. */
    name: z.string().nullable(),
  }),
  includeTranscripts: z.boolean(),
  redactPii: z.boolean(),
  status: z.enum(STAKEHOLDER_LINK_STATUSES),
  createdBy: ZAuthor,
  createdAt: ZTimestamp,
  expiresAt: ZTimestamp,
  revokedAt: ZTimestamp.nullable(),
  openCount: z.number().int(),
  lastOpenedAt: ZTimestamp.nullable(),
});
export type TStakeholderLink = z.infer<typeof ZStakeholderLink>;

/** The create answer: the link and its URL, which holds the token. Shown once: only a hash of the token is kept. */
export const ZCreatedStakeholderLink = ZStakeholderLink.extend({ url: z.string() });
export type TCreatedStakeholderLink = z.infer<typeof ZCreatedStakeholderLink>;

export const ZListStakeholderLinksInput = z.strictObject({
  kind: z.enum(STAKEHOLDER_LINK_KINDS).optional(),
  /** With `kind`: the links of one campaign, collection or session. */
  targetId: ZPathId.optional(),
  ...ZCursorPageInput,
});
export type TListStakeholderLinksInput = z.infer<typeof ZListStakeholderLinksInput>;
export const ZStakeholderLinkPage = ZCursorPage(ZStakeholderLink);

export const ZStakeholderLinkIdInput = z.strictObject({ linkId: ZPathId });

/** The audit of a link: when it was read, newest first (nothing about who read it: no address, no browser). */
export const ZStakeholderLinkOpens = z.object({
  linkId: z.string(),
  openCount: z.number().int(),
  opens: z.array(z.object({ openedAt: ZTimestamp })),
});
export type TStakeholderLinkOpens = z.infer<typeof ZStakeholderLinkOpens>;

/** The public read: the token from the URL, and for a campaign the filter the viewer picks. */
export const ZSharedViewInput = z.strictObject({
  token: z.string().min(1).max(200),
  filter: ZResultsFilter.optional(),
});
export type TSharedViewInput = z.infer<typeof ZSharedViewInput>;

export const ZSharedUtterance = z.object({
  speaker: z.enum(['ai', 'participant']),
  text: z.string(),
  /** Seconds from the session's start. */
  startTime: z.number(),
  questionId: z.string().nullable(),
});

export const ZSharedAnswer = z.object({
  questionId: z.string(),
  question: z.string().nullable(),
  type: z.enum(QUESTION_TYPES).nullable(),
  /** The rating, yes/no or option; free text redacted when the link redacts PII. */
  value: z.union([z.number(), z.boolean(), z.string()]).nullable(),
});

/** A session as a stakeholder sees it: no email, no metadata, no device; a name only when PII is not redacted. */
export const ZSharedSession = z.object({
  id: z.string(),
  campaignName: z.string(),
  /** The participant's name (or email) when the link does not redact PII; null otherwise. */
  participant: z.string().nullable(),
  status: z.string(),
  language: z.string(),
  startedAt: ZTimestamp.nullable(),
  durationSeconds: z.number().int(),
  answers: z.array(ZSharedAnswer),
  /** Null when the link leaves transcripts out; empty while the session has none. */
  transcript: z.array(ZSharedUtterance).nullable(),
});
export type TSharedSession = z.infer<typeof ZSharedSession>;

export const ZSharedCollectionItem = z.object({
  quote: z.string(),
  label: z.string().nullable(),
  note: z.string().nullable(),
  speaker: z.enum(['ai', 'participant']),
  campaignName: z.string(),
  /** The question the quoted answer was given to, when known. */
  question: z.string().nullable(),
  startTime: z.number(),
  /** The whole utterance the quote comes from, when the link includes transcripts. */
  context: z.string().nullable(),
});

/** What the shared page shows: the link's terms and its content, by kind. */
export const ZSharedView = z.object({
  link: z.object({
    kind: z.enum(STAKEHOLDER_LINK_KINDS),
    includeTranscripts: z.boolean(),
    redactPii: z.boolean(),
    expiresAt: ZTimestamp,
    organizationName: z.string(),
  }),
  campaign: z
    .object({
      name: z.string(),
      results: ZCampaignResults,
      /** The filter's sessions, newest first, at most 100; null when transcripts are not included. */
      sessions: z.array(ZSharedSession).nullable(),
    })
    .nullable(),
  collection: z.object({ name: z.string(), description: z.string().nullable(), items: z.array(ZSharedCollectionItem) }).nullable(),
  session: ZSharedSession.nullable(),
});
export type TSharedView = z.infer<typeof ZSharedView>;
