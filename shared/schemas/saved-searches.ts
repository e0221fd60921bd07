import { z } from 'zod';
import { ZAuthor, ZCursorPage, ZCursorPageInput, ZName, ZPathId, ZTimestamp } from './common.js';
import { ZSearchFilters, ZSearchText } from './search.js';

/** A search kept for the organization: its text and filters as `search.query` takes them. Names are unique per organization, ignoring case. */
export const ZSavedSearch = z.object({
  id: z.string(),
  name: z.string(),
  query: z.string(),
  filters: ZSearchFilters,
  author: ZAuthor,
  createdAt: ZTimestamp,
  updatedAt: ZTimestamp,
});
export type TSavedSearch = z.infer<typeof ZSavedSearch>;

export const ZCreateSavedSearchInput = z.strictObject({ name: ZName, query: ZSearchText, filters: ZSearchFilters.default({}) });
export type TCreateSavedSearchInput = z.infer<typeof ZCreateSavedSearchInput>;

export const ZListSavedSearchesInput = z.strictObject({ ...ZCursorPageInput });
export const ZSavedSearchPage = ZCursorPage(ZSavedSearch);

/** `filters` replaces the stored filters as a whole. */
export const ZUpdateSavedSearchInput = z.strictObject({
  savedSearchId: ZPathId,
  name: ZName.optional(),
  query: ZSearchText.optional(),
  filters: ZSearchFilters.optional(),
});
export type TUpdateSavedSearchInput = z.infer<typeof ZUpdateSavedSearchInput>;

export const ZSavedSearchIdInput = z.strictObject({ savedSearchId: ZPathId });
