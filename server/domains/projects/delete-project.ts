import { LockMode } from '@mikro-orm/core';
import { Project } from '../../entities/index.js';
import { notFound } from '../../errors.js';
import type { Caller } from '../common/caller.js';
import type { Deps } from '../common/deps.js';
import { unassignProjectCampaigns, unassignProjectScripts } from './queries.js';

/** Deletes the project; its campaigns and scripts stay, unassigned (their updatedAt moves). */
export async function deleteProject({ em }: Pick<Deps, 'em'>, caller: Caller, input: { projectId: string }): Promise<void> {
  const { projectId } = input;
  await em.transactional(async (tx) => {
    const project = await tx.findOne(Project, { id: projectId, organization: caller.organizationId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!project) throw notFound('project', projectId);
    // Service-wide lock order: project, scripts, campaigns (see updateCampaign); never reversed.
    await unassignProjectScripts.rows(tx, { projectId });
    await unassignProjectCampaigns.rows(tx, { projectId });
    await tx.nativeDelete(Project, { id: projectId });
  });
}
