import {
  ZCreatedStakeholderLink,
  ZCreateStakeholderLinkInput,
  ZListStakeholderLinksInput,
  ZSharedView,
  ZSharedViewInput,
  ZStakeholderLink,
  ZStakeholderLinkIdInput,
  ZStakeholderLinkOpens,
  ZStakeholderLinkPage,
} from '../../../shared/schemas/stakeholder-links.js';
import { customerProcedure, publicProcedure, router } from '../../trpc/trpc.js';
import { createStakeholderLink } from './create-stakeholder-link.js';
import { getSharedView } from './get-shared-view.js';
import { listStakeholderLinkOpens } from './list-stakeholder-link-opens.js';
import { listStakeholderLinks } from './list-stakeholder-links.js';
import { revokeStakeholderLink } from './revoke-stakeholder-link.js';

/**
 * Read-only links for people without an account (dashboard-only: tRPC procedures, no REST path).
 * Reading them (the list, the opens) needs `sessions:read`, the part of what every kind shows; a
 * campaign's results need `campaigns:read` as well, checked once the kind is known
 * (target-access.ts), so a link never shows more than its creator may read. Making and revoking
 * one needs `sessions:write` besides: a link publishes the organization's data to people without
 * an account, which a read-only member (the viewer role) must not do.
 */
export const stakeholderLinksRouter = router({
  create: customerProcedure
    .meta({ permission: 'sessions:write' })
    .input(ZCreateStakeholderLinkInput)
    .output(ZCreatedStakeholderLink)
    .mutation(({ ctx, input }) => createStakeholderLink(ctx, ctx.auth, input)),

  list: customerProcedure
    .meta({ permission: 'sessions:read' })
    .input(ZListStakeholderLinksInput)
    .output(ZStakeholderLinkPage)
    .query(({ ctx, input }) => listStakeholderLinks(ctx, ctx.auth, input)),

  opens: customerProcedure
    .meta({ permission: 'sessions:read' })
    .input(ZStakeholderLinkIdInput)
    .output(ZStakeholderLinkOpens)
    .query(({ ctx, input }) => listStakeholderLinkOpens(ctx, ctx.auth, input)),

  revoke: customerProcedure
    .meta({ permission: 'sessions:write' })
    .input(ZStakeholderLinkIdInput)
    .output(ZStakeholderLink)
    .mutation(({ ctx, input }) => revokeStakeholderLink(ctx, ctx.auth, input)),

  /** The page `/shared/{token}` reads through this, without credentials: the token is the credential. */
  view: publicProcedure
    .meta({ public: true, errors: ['STAKEHOLDER_LINK_GONE'] })
    .input(ZSharedViewInput)
    .output(ZSharedView)
    .query(({ ctx, input }) => getSharedView(ctx, input)),
});
