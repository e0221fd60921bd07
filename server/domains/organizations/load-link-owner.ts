import type { EntityManager } from '@mikro-orm/postgresql';
import { Organization } from '../../entities/index.js';
import type { LinkOwner } from '../../lib/public-links.js';

/** What invite and share links need of the organization (its custom domain), read once per request. */
export async function loadLinkOwner(em: EntityManager, organizationId: string): Promise<LinkOwner> {
  const organization = await em.findOneOrFail(Organization, organizationId, { fields: ['domain'], disableIdentityMap: true });
  return { domain: organization.domain };
}
