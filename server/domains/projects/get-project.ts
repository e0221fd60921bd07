import type { TProject } from '../../../shared/schemas/projects.js';
import type { Caller } from '../common/caller.js';
import type { Deps } from '../common/deps.js';
import { toProjectDtos } from './campaign-counts.js';
import { loadProject } from './load-project.js';

export async function getProject({ em }: Pick<Deps, 'em'>, caller: Caller, input: { projectId: string }): Promise<TProject> {
  const project = await loadProject(em, caller, input);
  const [dto] = await toProjectDtos(em, [project]);
  return dto!;
}
