import { z } from 'zod';
import {
  ZCreateSavedSearchInput,
  ZListSavedSearchesInput,
  ZSavedSearch,
  ZSavedSearchIdInput,
  ZSavedSearchPage,
  ZUpdateSavedSearchInput,
} from '../../../shared/schemas/saved-searches.js';
import { customerProcedure, router } from '../../trpc/trpc.js';
import { createSavedSearch } from './create-saved-search.js';
import { deleteSavedSearch } from './delete-saved-search.js';
import { listSavedSearches } from './list-saved-searches.js';
import { updateSavedSearch } from './update-saved-search.js';

/** Saved cross-transcript searches of the organization (dashboard-only: tRPC procedures, no REST path). */
export const savedSearchesRouter = router({
  create: customerProcedure
    .meta({ permission: 'sessions:write', errors: ['NAME_TAKEN'] })
    .input(ZCreateSavedSearchInput)
    .output(ZSavedSearch)
    .mutation(({ ctx, input }) => createSavedSearch(ctx, ctx.auth, input)),

  list: customerProcedure
    .meta({ permission: 'sessions:read' })
    .input(ZListSavedSearchesInput)
    .output(ZSavedSearchPage)
    .query(({ ctx, input }) => listSavedSearches(ctx, ctx.auth, input)),

  update: customerProcedure
    .meta({ permission: 'sessions:write', errors: ['NAME_TAKEN'] })
    .input(ZUpdateSavedSearchInput)
    .output(ZSavedSearch)
    .mutation(({ ctx, input }) => updateSavedSearch(ctx, ctx.auth, input)),

  delete: customerProcedure
    .meta({ permission: 'sessions:write' })
    .input(ZSavedSearchIdInput)
    .output(z.void())
    .mutation(({ ctx, input }) => deleteSavedSearch(ctx, ctx.auth, input)),
});
