import type { EntityManager } from '@mikro-orm/postgresql';
import type { TProject } from '../../../shared/schemas/projects.js';
import { loadProject } from './load-project.js';
import { toProjectDtos } from './campaign-counts.js';

export async function getProject(em: EntityManager, organizationId: string, projectId: string): Promise<TProject> {
  const project = await loadProject(em, organizationId, projectId);
  const [dto] = await toProjectDtos(em, [project]);
  return dto!;
}
