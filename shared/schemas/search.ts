import { z } from 'zod';

/**
 * Filters of a cross-transcript search, shared by `search.query` and saved searches (which store
 * them as they are). Every filter narrows: an empty object searches every session of the
 * organization.
 */
export const ZSearchFilters = z.strictObject({
  campaignIds: z.array(z.string().min(1).max(64)).max(50).optional(),
  projectIds: z.array(z.string().min(1).max(64)).max(50).optional(),
  /** The session's start, inclusive (ISO 8601). */
  from: z.iso.datetime({ offset: true }).optional(),
  /** The session's start, exclusive (ISO 8601). */
  to: z.iso.datetime({ offset: true }).optional(),
  sentiment: z
    .array(z.enum(['positive', 'neutral', 'negative']))
    .max(3)
    .optional(),
  /** Script question ids: only utterances asked or answered under these questions. */
  questionIds: z.array(z.string().min(1).max(100)).max(50).optional(),
  speaker: z.enum(['ai', 'participant', 'all']).optional(),
});
export type SearchFilters = z.infer<typeof ZSearchFilters>;

/** A search's text: PostgreSQL `websearch_to_tsquery` syntax ("exact phrase", -exclude, or). */
export const ZSearchText = z.string().trim().min(1).max(500);

/** The most matches `search.query` counts exactly; beyond it `total` stays here and `totalCapped` is true. */
export const SEARCH_TOTAL_CAP = 1000;

/** `search.query`: one page of utterances matching `query`, best first. */
export const ZSearchQueryInput = z
  .strictObject({
    query: ZSearchText,
    filters: ZSearchFilters.default({}),
    /** Page size, 1 to 100 (default 20). */
    limit: z.number().int().min(1).max(100).default(20),
    /** `nextCursor` of the previous page of the same query and filters. */
    cursor: z.string().min(1).max(500).optional(),
  })
  .superRefine((input, ctx) => {
    const { from, to } = input.filters;
    if (from && to && Date.parse(to) <= Date.parse(from)) ctx.addIssue({ code: 'custom', path: ['filters', 'to'], message: 'must be after filters.from' });
  });
export type TSearchQueryInput = z.input<typeof ZSearchQueryInput>;

/** A piece of a snippet: the matched words have `match: true`. Plain text, never HTML. */
export const ZSearchSnippetSegment = z.object({ text: z.string(), match: z.boolean() });
export type TSearchSnippetSegment = z.infer<typeof ZSearchSnippetSegment>;

/** One matching utterance, with its session and campaign. */
export const ZSearchHit = z.object({
  sessionId: z.string(),
  campaignId: z.string(),
  campaignName: z.string(),
  utteranceId: z.string(),
  questionId: z.string().nullable(),
  speaker: z.enum(['ai', 'participant']),
  /** The utterance's whole current text (redactions included). */
  text: z.string(),
  /** An excerpt around the best match (the whole text when short); `…` segments mark cuts. */
  snippet: z.array(ZSearchSnippetSegment),
  /** Relevance, 0 to 1: higher is better; comparable within one search only. */
  rank: z.number(),
  /** Seconds from the session's start. */
  startTime: z.number(),
  /** The effective sentiment (a researcher's override, else the analysed one); null before analysis. */
  sentiment: z.enum(['positive', 'neutral', 'negative']).nullable(),
  sessionStartedAt: z.string().nullable(),
});
export type TSearchHit = z.infer<typeof ZSearchHit>;

export const ZSearchResult = z.object({
  data: z.array(ZSearchHit),
  /** Matches of the query and filters, counted exactly up to SEARCH_TOTAL_CAP (1000). */
  total: z.number().int(),
  /** True when there are more than `total` matches (the count stopped at the cap). */
  totalCapped: z.boolean(),
  hasMore: z.boolean(),
  nextCursor: z.string().nullable(),
});
export type TSearchResult = z.infer<typeof ZSearchResult>;
