import type { EntityManager } from '@mikro-orm/postgresql';
import type { TProject } from '../../../shared/schemas/projects.js';
import type { Project } from '../../entities/index.js';
import { toProjectDto } from './serialize.js';

/** Campaign counts for a page of projects in one grouped query. */
async function countCampaignsByProject(em: EntityManager, projectIds: string[]): Promise<Map<string, number>> {
  if (projectIds.length === 0) return new Map();
  const rows = await em.execute<{ project_id: string; count: string }[]>(
    `select project_id, count(*) as count from campaigns where project_id in (?) and not preview group by project_id`,
    [projectIds],
  );
  return new Map(rows.map((row) => [row.project_id, Number(row.count)]));
}

export async function toProjectDtos(em: EntityManager, projects: Project[]): Promise<TProject[]> {
  const counts = await countCampaignsByProject(
    em,
    projects.map((project) => project.id),
  );
  return projects.map((project) => toProjectDto(project, counts.get(project.id) ?? 0));
}
