import type { TProject, TUpdateProjectInput } from '../../../shared/schemas/projects.js';
import { loadProject } from './load-project.js';
import { toProjectDtos } from './campaign-counts.js';
import type { Caller } from '../common/caller.js';
import type { Deps } from '../common/deps.js';

export async function updateProject({ em }: Pick<Deps, 'em'>, caller: Caller, input: TUpdateProjectInput): Promise<TProject> {
  const project = await loadProject(em, caller, input);
  if (input.name !== undefined) project.name = input.name;
  if (input.description !== undefined) project.description = input.description;
  if (input.color !== undefined) project.color = input.color;
  await em.flush();
  const [dto] = await toProjectDtos(em, [project]);
  return dto!;
}
