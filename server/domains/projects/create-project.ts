import type { TCreateProjectInput, TProject } from '../../../shared/schemas/projects.js';
import { Project } from '../../entities/index.js';
import { newId } from '../../lib/ids.js';
import type { Caller } from '../common/caller.js';
import type { Deps } from '../common/deps.js';
import { toProjectDto } from './serialize.js';

export async function createProject({ em }: Pick<Deps, 'em'>, caller: Caller, input: TCreateProjectInput): Promise<TProject> {
  const project = em.create(Project, {
    id: newId('prj'),
    organization: caller.organizationId,
    name: input.name,
    description: input.description ?? null,
    color: input.color ?? null,
  });
  await em.flush();
  return toProjectDto(project, 0);
}
