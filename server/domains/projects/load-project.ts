import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Project } from '../../entities/index.js';
import { notFound } from '../../errors.js';

/** The organization's project or 404; `fieldPath` names the body field when the id came from one. */
export async function loadProject(em: EntityManager, organizationId: string, projectId: string, fieldPath?: string): Promise<Project> {
  const project = await em.findOne(Project, { id: projectId, organization: organizationId });
  if (!project) throw notFound('project', projectId, fieldPath);
  return project;
}

/**
 * For writes that assign a project: share-locks the row inside the caller's transaction, so a
 * concurrent project delete either waits for the write or makes this answer 404 (never a
 * foreign-key failure).
 */
export async function loadProjectForAssignment(em: EntityManager, organizationId: string, projectId: string): Promise<Project> {
  const project = await em.findOne(Project, { id: projectId, organization: organizationId }, { lockMode: LockMode.PESSIMISTIC_READ });
  if (!project) throw notFound('project', projectId, 'projectId');
  return project;
}
