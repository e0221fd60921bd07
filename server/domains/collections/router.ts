import { z } from 'zod';
import {
  ZAddHighlightInput,
  ZCollection,
  ZCollectionIdInput,
  ZCollectionItem,
  ZCollectionItemPage,
  ZCollectionPage,
  ZCreateCollectionInput,
  ZListCollectionItemsInput,
  ZListCollectionsInput,
  ZRemoveHighlightInput,
  ZUpdateCollectionInput,
} from '../../../shared/schemas/collections.js';
import { customerProcedure, router } from '../../trpc/trpc.js';
import { addHighlightToCollection } from './add-highlight.js';
import { createCollection } from './create-collection.js';
import { deleteCollection } from './delete-collection.js';
import { getCollection, listCollectionItems } from './get-collection.js';
import { listCollections } from './list-collections.js';
import { removeHighlightFromCollection } from './remove-highlight.js';
import { updateCollection } from './update-collection.js';

/** Collections of highlights across sessions, shared by the organization (dashboard-only: tRPC procedures, no REST path). */
export const collectionsRouter = router({
  create: customerProcedure
    .meta({ permission: 'sessions:write', errors: ['NAME_TAKEN'] })
    .input(ZCreateCollectionInput)
    .output(ZCollection)
    .mutation(({ ctx, input }) => createCollection(ctx, ctx.auth, input)),

  list: customerProcedure
    .meta({ permission: 'sessions:read' })
    .input(ZListCollectionsInput)
    .output(ZCollectionPage)
    .query(({ ctx, input }) => listCollections(ctx, ctx.auth, input)),

  get: customerProcedure
    .meta({ permission: 'sessions:read' })
    .input(ZCollectionIdInput)
    .output(ZCollection)
    .query(({ ctx, input }) => getCollection(ctx, ctx.auth, input)),

  items: customerProcedure
    .meta({ permission: 'sessions:read' })
    .input(ZListCollectionItemsInput)
    .output(ZCollectionItemPage)
    .query(({ ctx, input }) => listCollectionItems(ctx, ctx.auth, input)),

  update: customerProcedure
    .meta({ permission: 'sessions:write', errors: ['NAME_TAKEN'] })
    .input(ZUpdateCollectionInput)
    .output(ZCollection)
    .mutation(({ ctx, input }) => updateCollection(ctx, ctx.auth, input)),

  delete: customerProcedure
    .meta({ permission: 'sessions:write' })
    .input(ZCollectionIdInput)
    .output(z.void())
    .mutation(({ ctx, input }) => deleteCollection(ctx, ctx.auth, input)),

  addHighlight: customerProcedure
    .meta({ permission: 'sessions:write' })
    .input(ZAddHighlightInput)
    .output(ZCollectionItem)
    .mutation(({ ctx, input }) => addHighlightToCollection(ctx, ctx.auth, input)),

  removeHighlight: customerProcedure
    .meta({ permission: 'sessions:write' })
    .input(ZRemoveHighlightInput)
    .output(z.void())
    .mutation(({ ctx, input }) => removeHighlightFromCollection(ctx, ctx.auth, input)),
});
