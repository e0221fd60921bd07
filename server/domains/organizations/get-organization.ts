import type { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { TOrganization } from '../../../shared/schemas/organization.js';
import { Organization } from '../../entities/index.js';
import { notFound } from '../../errors.js';

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

export async function loadOrganization(
  em: EntityManager,
  organizationId: string,
  options: { lockMode?: LockMode } = {},
): Promise<Organization> {
  const organization = await em.findOne(Organization, organizationId, options.lockMode ? { lockMode: options.lockMode, refresh: true } : {});
  if (!organization) throw notFound('organization', organizationId);
  return organization;
}

export async function getOrganization(em: EntityManager, organizationId: string): Promise<TOrganization> {
  return toOrganizationDto(await loadOrganization(em, organizationId));
}
