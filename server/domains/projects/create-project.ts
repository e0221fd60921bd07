import type { EntityManager } from '@mikro-orm/postgresql';
import type { TCreateProjectInput, TProject } from '../../../shared/schemas/projects.js';
import { Project } from '../../entities/index.js';
import { newId } from '../../lib/ids.js';
import { toProjectDto } from './serialize.js';

export async function createProject(em: EntityManager, organizationId: string, input: TCreateProjectInput): Promise<TProject> {
  const project = em.create(Project, {
    id: newId('prj'),
    organization: organizationId,
    name: input.name,
    description: input.description ?? null,
    color: input.color ?? null,
  });
  await em.flush();
  return toProjectDto(project, 0);
}
