import { z } from 'zod';
import { ZIdInput } from '../../../shared/schemas/common.js';
import { ZCreateProjectInput, ZListProjectsInput, ZProject, ZProjectPage, ZUpdateProjectInput } from '../../../shared/schemas/projects.js';
import { apiProcedure, router } from '../../trpc/trpc.js';
import { createProject } from './create-project.js';
import { deleteProject } from './delete-project.js';
import { getProject } from './get-project.js';
import { listProjects } from './list-projects.js';
import { updateProject } from './update-project.js';

const tags = ['Projects'];

export const projectsRouter = router({
  list: apiProcedure
    .meta({ openapi: { method: 'GET', path: '/v1/projects', tags, summary: 'List projects' }, permission: 'campaigns:read' })
    .input(ZListProjectsInput)
    .output(ZProjectPage)
    .query(({ ctx, input }) => listProjects(ctx, ctx.auth, input)),

  create: apiProcedure
    .meta({
      openapi: { method: 'POST', path: '/v1/projects', tags, summary: 'Create a project' },
      permission: 'campaigns:write',
      successStatus: 201,
      location: '/v1/projects/{id}',
    })
    .input(ZCreateProjectInput)
    .output(ZProject)
    .mutation(({ ctx, input }) => createProject(ctx, ctx.auth, input)),

  get: apiProcedure
    .meta({ openapi: { method: 'GET', path: '/v1/projects/{projectId}', tags, summary: 'Get a project' }, permission: 'campaigns:read' })
    .input(ZIdInput('projectId'))
    .output(ZProject)
    .query(({ ctx, input }) => getProject(ctx, ctx.auth, input)),

  update: apiProcedure
    .meta({
      openapi: { method: 'PATCH', path: '/v1/projects/{projectId}', tags, summary: 'Update a project' },
      permission: 'campaigns:write',
    })
    .input(ZUpdateProjectInput)
    .output(ZProject)
    .mutation(({ ctx, input }) => updateProject(ctx, ctx.auth, input)),

  delete: apiProcedure
    .meta({
      openapi: {
        method: 'DELETE',
        path: '/v1/projects/{projectId}',
        tags,
        summary: 'Delete a project',
        description: 'Its campaigns and scripts are unassigned, not deleted.',
      },
      permission: 'campaigns:write',
      successStatus: 204,
    })
    .input(ZIdInput('projectId'))
    .output(z.void())
    .mutation(({ ctx, input }) => deleteProject(ctx, ctx.auth, input)),
});
