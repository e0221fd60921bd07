import type { CustomerAuth, OrganizationScope } from '../common/caller.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { PermissionRequirement } from '../../../shared/permissions.js';
import type { TStakeholderLinkKind, TStakeholderTarget } from '../../../shared/schemas/stakeholder-links.js';
import { campaignTarget, collectionTarget, sessionTarget } from './queries.js';
import { notFound } from '../../errors.js';
import { assertPermission } from '../common/permissions.js';

/**
 * Who may share (and see the links of, and revoke) each kind: whoever may read what the link
 * shows, so a link never shows more than its creator could see. A session and a collection's
 * quotes are session content (`sessions:read`, as `workspace.session` and `collections.items`);
 * a campaign's results are its answers counted, plus its sessions when transcripts are included
 * (`campaigns:read` and `sessions:read`). The procedures' own permission is `sessions:read`, the
 * part every kind needs; the rest is checked here, once the kind is known.
 */
export const TARGET_PERMISSIONS: Record<TStakeholderLinkKind, PermissionRequirement> = {
  campaign: ['campaigns:read', 'sessions:read'],
  collection: 'sessions:read',
  session: 'sessions:read',
};

export function assertMayShare(auth: CustomerAuth, kind: TStakeholderLinkKind): void {
  assertPermission(auth, TARGET_PERMISSIONS[kind]);
}

/** The kinds whose links the caller may see. */
export function shareableKinds(auth: CustomerAuth): TStakeholderLinkKind[] {
  return (Object.keys(TARGET_PERMISSIONS) as TStakeholderLinkKind[]).filter((kind) => {
    const required = TARGET_PERMISSIONS[kind];
    return (typeof required === 'string' ? [required] : required).every((permission) => auth.permissions.includes(permission));
  });
}

const RESOURCE_OF = { campaign: 'campaign', collection: 'collection', session: 'session' } as const;

/**
 * 404 on `target.id` unless the target is the organization's. A preview campaign or session (a
 * "Preview as participant") is never shared: it is 404 as it is in results.
 */
export async function assertTargetExists(em: EntityManager, { organizationId }: OrganizationScope, target: TStakeholderTarget): Promise<void> {
  const query = { campaign: campaignTarget, collection: collectionTarget, session: sessionTarget }[target.kind];
  const row = await query.first(em, { organizationId, id: target.id });
  if (!row) throw notFound(RESOURCE_OF[target.kind], target.id, 'target.id');
}
