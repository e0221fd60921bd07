import type { EntityManager } from '@mikro-orm/postgresql';
import { isTestWorld, Organization } from '../../entities/index.js';
import { notFound } from '../../errors.js';
import { newId } from '../../lib/ids.js';
import type { Deps } from '../common/deps.js';
import { insertTestOrganization, mirrorIntoTestOrganization, shareLockTestWorld, testOrganizationIdOf } from './queries.js';

/**
 * Test mode (docs/api.md "Test mode"): an organization's test world is an organization of its own
 * that names its live one. Its keys (`isk_test_…`) act only there, and every statement is scoped
 * to the caller's organization, so test data never mixes with live data and neither world can
 * read the other (404). What differs in a test world is decided by `isTestOrganization`'s column
 * where it matters: interviews cost no credits, emails stay in the outbox, payments use the
 * built-in provider, and every record answered says `livemode: false`.
 */

/**
 * The test world of `organizationId`, made on first use, share-locked until the caller's
 * transaction ends (call it in one): a deletion of the test data replaces the world, and what is
 * made in it meanwhile must not point at the one deleted. A test world is its own test world.
 */
export async function ensureTestOrganization({ em }: Pick<Deps, 'em'>, input: { organizationId: string }): Promise<Organization> {
  const organization = await em.findOne(Organization, { id: input.organizationId });
  if (!organization) throw notFound('organization', input.organizationId);
  if (isTestWorld(organization)) return organization;
  // Twice at most: a deletion that held the world's lock has replaced it by the second look.
  for (let attempt = 0; attempt < 2; attempt += 1) {
    await insertTestOrganization.rows(em, { testOrganizationId: newId('org'), liveOrganizationId: organization.id });
    const locked = await shareLockTestWorld.first(em, { liveOrganizationId: organization.id });
    if (locked) return em.findOneOrFail(Organization, { id: locked.id });
  }
  throw new Error(`the test world of ${organization.id} could not be made`);
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
