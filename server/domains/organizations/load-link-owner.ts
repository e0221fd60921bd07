import type { EntityManager } from '@mikro-orm/postgresql';
import { Organization } from '../../entities/index.js';
import type { LinkOwner } from '../../lib/public-links.js';
import type { OrganizationScope } from '../common/caller.js';

/** What invite and share links need of the scope's organization (its custom domain), read once per request. */
export async function loadLinkOwner(em: EntityManager, scope: OrganizationScope): Promise<LinkOwner> {
  const organization = await em.findOneOrFail(Organization, scope.organizationId, { fields: ['domain'], disableIdentityMap: true });
  return { domain: organization.domain };
}
