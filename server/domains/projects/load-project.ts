import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Project } from '../../entities/index.js';
import { notFound } from '../../errors.js';
import type { OrganizationScope } from '../common/caller.js';

export interface LoadProjectInput {
  projectId: string;
  /** The body field the id came from, named in the 404. */
  fieldPath?: string;
}

/** The scope's organization's project or 404. */
export async function loadProject(em: EntityManager, scope: OrganizationScope, input: LoadProjectInput): Promise<Project> {
  const project = await em.findOne(Project, { id: input.projectId, organization: scope.organizationId });
  if (!project) throw notFound('project', input.projectId, input.fieldPath);
  return project;
}

/**
 * For writes that assign a project (`projectId` in their body): share-locks the row inside the
 * scope's transaction, so a concurrent project delete either waits for the write or makes this
 * answer 404 (never a foreign-key failure).
 */
export async function loadProjectForAssignment(em: EntityManager, scope: OrganizationScope, input: { projectId: string }): Promise<Project> {
  const project = await em.findOne(Project, { id: input.projectId, organization: scope.organizationId }, { lockMode: LockMode.PESSIMISTIC_READ });
  if (!project) throw notFound('project', input.projectId, 'projectId');
  return project;
}
