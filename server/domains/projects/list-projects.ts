import type { EntityManager } from '@mikro-orm/postgresql';
import type { Page } from '../../../shared/schemas/common.js';
import type { TListProjectsInput, TProject } from '../../../shared/schemas/projects.js';
import { Project } from '../../entities/index.js';
import { containsPattern, pageOf } from '../pagination.js';
import { toProjectDtos } from './campaign-counts.js';

export async function listProjects(em: EntityManager, organizationId: string, input: TListProjectsInput): Promise<Page<TProject>> {
  const where = {
    organization: organizationId,
    ...(input.search ? { name: { $ilike: containsPattern(input.search) } } : {}),
  };
  const [projects, total] = await em.findAndCount(Project, where, {
    orderBy: { createdAt: 'desc', id: 'desc' },
    limit: input.limit,
    offset: input.offset,
    // Read-only page: skipping the identity map skips change-tracking snapshots (bench/api.ts).
    disableIdentityMap: true,
  });
  return pageOf(await toProjectDtos(em, projects), total, input.limit, input.offset);
}
