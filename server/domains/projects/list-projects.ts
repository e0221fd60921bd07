import type { EntityManager } from '@mikro-orm/postgresql';
import type { Page } from '../../../shared/schemas/common.js';
import type { TListProjectsInput, TProject } from '../../../shared/schemas/projects.js';
import { Project } from '../../entities/index.js';
import { containsPattern } from '../pagination.js';
import { findPage, pageFrom } from '../keyset-page.js';
import { toProjectDtos } from './campaign-counts.js';

export async function listProjects(em: EntityManager, organizationId: string, input: TListProjectsInput): Promise<Page<TProject>> {
  const where = {
    organization: organizationId,
    ...(input.search ? { name: { $ilike: containsPattern(input.search) } } : {}),
  };
  // Read-only page: skipping the identity map skips change-tracking snapshots (bench/api.ts).
  const page = await findPage(em, Project, where, input, undefined, { disableIdentityMap: true });
  return pageFrom(page, await toProjectDtos(em, page.items));
}
