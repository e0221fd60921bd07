import type { EntityManager } from '@mikro-orm/postgresql';
import type { TProject, TUpdateProjectInput } from '../../../shared/schemas/projects.js';
import { loadProject } from './load-project.js';
import { toProjectDtos } from './campaign-counts.js';

export async function updateProject(em: EntityManager, organizationId: string, input: TUpdateProjectInput): Promise<TProject> {
  const project = await loadProject(em, organizationId, input.projectId);
  if (input.name !== undefined) project.name = input.name;
  if (input.description !== undefined) project.description = input.description;
  if (input.color !== undefined) project.color = input.color;
  await em.flush();
  const [dto] = await toProjectDtos(em, [project]);
  return dto!;
}
