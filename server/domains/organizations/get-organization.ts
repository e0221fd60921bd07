import type { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { TOrganization } from '../../../shared/schemas/organization.js';
import { Organization } from '../../entities/index.js';
import { notFound } from '../../errors.js';
import type { Caller, OrganizationScope } from '../common/caller.js';
import type { Deps } from '../common/deps.js';

export function toOrganizationDto(organization: Organization): TOrganization {
  return {
    id: organization.id,
    name: organization.name,
    logo: organization.logo ?? null,
    domain: organization.domain ?? null,
    plan: organization.plan,
    settings: organization.settings,
    createdAt: organization.createdAt.toISOString(),
    updatedAt: organization.updatedAt.toISOString(),
  };
}

/** The scope's organization, or 404. */
export async function loadOrganization(em: EntityManager, scope: OrganizationScope, options: { lockMode?: LockMode } = {}): Promise<Organization> {
  const organization = await em.findOne(Organization, scope.organizationId, options.lockMode ? { lockMode: options.lockMode, refresh: true } : {});
  if (!organization) throw notFound('organization', scope.organizationId);
  return organization;
}

/** `GET /v1/organization`: the caller's organization. */
export async function getOrganization({ em }: Pick<Deps, 'em'>, caller: Caller): Promise<TOrganization> {
  return toOrganizationDto(await loadOrganization(em, caller));
}
