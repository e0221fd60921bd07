import type { EntityManager } from '@mikro-orm/postgresql';
import { Project } from '../../entities/index.js';
import { notFound } from '../../errors.js';

/** The organization's project or 404; `fieldPath` names the body field when the id came from one. */
export async function loadProject(em: EntityManager, organizationId: string, projectId: string, fieldPath?: string): Promise<Project> {
  const project = await em.findOne(Project, { id: projectId, organization: organizationId });
  if (!project) throw notFound('project', projectId, fieldPath);
  return project;
}
