import type { Page } from '../../../shared/schemas/common.js';
import type { TListProjectsInput, TProject } from '../../../shared/schemas/projects.js';
import { Project } from '../../entities/index.js';
import { containsPattern } from '../common/pagination.js';
import { findPage, pageFrom } from '../common/keyset-page.js';
import { toProjectDtos } from './campaign-counts.js';
import type { Caller } from '../common/caller.js';
import type { Deps } from '../common/deps.js';

export async function listProjects({ em }: Pick<Deps, 'em'>, caller: Caller, input: TListProjectsInput): Promise<Page<TProject>> {
  const where = {
    organization: caller.organizationId,
    ...(input.search ? { name: { $ilike: containsPattern(input.search) } } : {}),
  };
  // Read-only page: skipping the identity map skips change-tracking snapshots (bench/api.ts).
  const page = await findPage(em, Project, where, input, undefined, { disableIdentityMap: true });
  return pageFrom(page, await toProjectDtos(em, page.items));
}
