import type { EntityManager } from '@mikro-orm/postgresql';
import type { TProject } from '../../../shared/schemas/projects.js';
import type { Project } from '../../entities/index.js';
import { campaignCountsByProject } from './queries.js';
import { toProjectDto } from './serialize.js';

/** The projects as the API shows them, with their campaign counts read in one grouped query. */
export async function toProjectDtos(em: EntityManager, projects: Project[]): Promise<TProject[]> {
  const counts = new Map<string, number>();
  if (projects.length > 0) {
    const rows = await campaignCountsByProject.rows(em, { projectIds: projects.map((project) => project.id) });
    for (const row of rows) counts.set(row.project_id, Number(row.count));
  }
  return projects.map((project) => toProjectDto(project, counts.get(project.id) ?? 0));
}
