import type { TDeletedTestData } from '../../../shared/schemas/organization.js';
import { newId } from '../../lib/ids.js';
import type { Caller } from '../common/caller.js';
import type { Deps } from '../common/deps.js';
import {
  deleteCampaignsOf,
  deleteDetachedWorld,
  detachTestWorld,
  insertTestOrganization,
  lockTestWorld,
  moveTestWorldSetup,
  testWorldCounts,
} from './queries.js';

const NOTHING = { campaigns: 0, invites: 0, sessions: 0, events: 0 };

/**
 * `DELETE /v1/test-data`: everything of the organization's test world goes (campaigns, scripts,
 * projects, invites, sessions and their results, events and deliveries, test credits), in one
 * transaction; its setup stays: its API keys and webhook endpoints go on working. Live data is
 * never touched: a live key or a member deletes their organization's test data, a test key its
 * own. The files the deleted records named (recordings, uploads, exports) are removed by the
 * storage sweep of files no record names.
 */
export async function deleteTestData({ em }: Pick<Deps, 'em'>, caller: Caller): Promise<TDeletedTestData> {
  return em.transactional(async (tx) => {
    const world = await lockTestWorld.first(tx, { organizationId: caller.organizationId });
    if (!world) return { deleted: NOTHING };
    const counts = await testWorldCounts.first(tx, { organizationId: world.id });
    await detachTestWorld.rows(tx, { worldId: world.id });
    const replacement = await insertTestOrganization.first(tx, { testOrganizationId: newId('org'), liveOrganizationId: world.live_organization_id });
    if (!replacement) throw new Error(`the test world of ${world.live_organization_id} could not be replaced`);
    await moveTestWorldSetup.rows(tx, { fromWorldId: world.id, toWorldId: replacement.id });
    await deleteCampaignsOf.rows(tx, { worldId: world.id });
    // Nothing may stay behind as a detached organization: if the old world is not deleted, nothing is.
    const deleted = await deleteDetachedWorld.rows(tx, { worldId: world.id });
    if (deleted.length !== 1) throw new Error(`the old test world ${world.id} could not be deleted`);
    return { deleted: counts ?? NOTHING };
  });
}
