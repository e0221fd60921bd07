import type { EntityManager } from '@mikro-orm/postgresql';
import { Organization } from '../../entities/index.js';
import { notFound } from '../../errors.js';
import { newId } from '../../lib/ids.js';
import type { Deps } from '../common/deps.js';
import { insertTestOrganization, mirrorIntoTestOrganization, testOrganizationIdOf } from './queries.js';

/**
 * Test mode (docs/api.md "Test mode"): an organization's test world is an organization of its own
 * that names its live one. Its keys (`isk_test_…`) act only there, and every statement is scoped
 * to the caller's organization, so test data never mixes with live data and neither world can
 * read the other (404). What differs in a test world is decided by `isTestOrganization`'s column
 * where it matters: interviews cost no credits, emails stay in the outbox, payments use the
 * built-in provider, and every record answered says `livemode: false`.
 */

/** The test world of `organizationId`, made on first use. A test world is its own test world. */
export async function ensureTestOrganization({ em }: Pick<Deps, 'em'>, input: { organizationId: string }): Promise<Organization> {
  const organization = await em.findOne(Organization, { id: input.organizationId });
  if (!organization) throw notFound('organization', input.organizationId);
  if (organization.liveOrganization) return organization;
  await insertTestOrganization.rows(em, { testOrganizationId: newId('org'), liveOrganizationId: organization.id });
  const made = await em.findOne(Organization, { liveOrganization: organization.id });
  if (!made) throw new Error(`the test world of ${organization.id} was not made`);
  return made;
}

/** The ids of an organization's worlds: itself and, when it has one, its test world (members manage both worlds' keys). */
export async function organizationWorldIds(em: EntityManager, input: { organizationId: string }): Promise<string[]> {
  const test = await testOrganizationIdOf.first(em, { liveOrganizationId: input.organizationId });
  return test ? [input.organizationId, test.id] : [input.organizationId];
}

/** After the live organization changed: its test world takes the same name, logo, plan and settings. */
export async function mirrorLiveOrganization(em: EntityManager, input: { liveOrganizationId: string }): Promise<void> {
  await mirrorIntoTestOrganization.rows(em, input);
}
