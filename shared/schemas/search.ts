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
  sentiment: z.array(z.enum(['positive', 'neutral', 'negative'])).max(3).optional(),
  /** Script question ids: only utterances asked or answered under these questions. */
  questionIds: z.array(z.string().min(1).max(100)).max(50).optional(),
  speaker: z.enum(['ai', 'participant', 'all']).optional(),
});
export type SearchFilters = z.infer<typeof ZSearchFilters>;

/** A search's text: PostgreSQL `websearch_to_tsquery` syntax ("exact phrase", -exclude, or). */
export const ZSearchText = z.string().trim().min(1).max(500);
