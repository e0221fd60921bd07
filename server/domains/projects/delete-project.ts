import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Project } from '../../entities/index.js';
import { notFound } from '../../errors.js';

/** Deletes the project; its campaigns and scripts stay, unassigned (their updatedAt moves). */
export async function deleteProject(em: EntityManager, organizationId: string, projectId: string): Promise<void> {
  await em.transactional(async (tx) => {
    const project = await tx.findOne(Project, { id: projectId, organization: organizationId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!project) throw notFound('project', projectId);
    // Service-wide lock order: project, scripts, campaigns (see updateCampaign); never reversed.
    await tx.execute(`update scripts set project_id = null, updated_at = now() where project_id = ?`, [projectId]);
    await tx.execute(`update campaigns set project_id = null, updated_at = now() where project_id = ?`, [projectId]);
    await tx.nativeDelete(Project, { id: projectId });
  });
}
