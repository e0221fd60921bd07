import type { TProject } from '../../../shared/schemas/projects.js';
import type { Project } from '../../entities/index.js';

export function toProjectDto(project: Project, campaignCount: number): TProject {
  return {
    id: project.id,
    name: project.name,
    description: project.description ?? null,
    color: project.color ?? null,
    campaignCount,
    createdAt: project.createdAt.toISOString(),
    updatedAt: project.updatedAt.toISOString(),
  };
}
