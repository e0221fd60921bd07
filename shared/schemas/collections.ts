import { z } from 'zod';
import { ZAuthor, ZCursorPage, ZCursorPageInput, ZName, ZPathId, ZTimestamp } from './common.js';
import { ZHighlight } from './highlights.js';

export const COLLECTION_LIMITS = { descriptionMaxLength: 2000, noteMaxLength: 2000 } as const;

const ZDescription = z.string().trim().min(1, 'must not be empty').max(COLLECTION_LIMITS.descriptionMaxLength);

/** A collection of highlights, shared by the whole organization. Names are unique per organization, ignoring case. */
export const ZCollection = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  itemCount: z.number().int(),
  author: ZAuthor,
  createdAt: ZTimestamp,
  updatedAt: ZTimestamp,
});
export type TCollection = z.infer<typeof ZCollection>;

/** A highlight in a collection: the highlight as it is now (quote, session, campaign, utterance), and why it was added. */
export const ZCollectionItem = z.object({
  highlight: ZHighlight,
  note: z.string().nullable(),
  addedBy: ZAuthor,
  addedAt: ZTimestamp,
});
export type TCollectionItem = z.infer<typeof ZCollectionItem>;

/** A page of a collection's items, in the order they were added. */
export const ZListCollectionItemsInput = z.strictObject({ collectionId: ZPathId, ...ZCursorPageInput });
export const ZCollectionItemPage = ZCursorPage(ZCollectionItem);

export const ZCreateCollectionInput = z.strictObject({ name: ZName, description: ZDescription.optional() });
export type TCreateCollectionInput = z.infer<typeof ZCreateCollectionInput>;

export const ZListCollectionsInput = z.strictObject({ ...ZCursorPageInput });
export const ZCollectionPage = ZCursorPage(ZCollection);

export const ZCollectionIdInput = z.strictObject({ collectionId: ZPathId });

/** `description: null` clears it. */
export const ZUpdateCollectionInput = z.strictObject({ collectionId: ZPathId, name: ZName.optional(), description: ZDescription.nullable().optional() });
export type TUpdateCollectionInput = z.infer<typeof ZUpdateCollectionInput>;

/** Adding a highlight already in the collection answers its item as it is (its place and note unchanged). */
export const ZAddHighlightInput = z.strictObject({
  collectionId: ZPathId,
  highlightId: ZPathId,
  note: z.string().trim().min(1, 'must not be empty').max(COLLECTION_LIMITS.noteMaxLength).optional(),
});
export type TAddHighlightInput = z.infer<typeof ZAddHighlightInput>;

export const ZRemoveHighlightInput = z.strictObject({ collectionId: ZPathId, highlightId: ZPathId });
