import { z } from 'zod';
import { ZIdInput } from '../../../shared/schemas/common.js';
import {
  ZCreateScriptInput,
  ZCreateScriptVersionInput,
  ZDeleteScriptMediaInput,
  ZGetScriptVersionInput,
  ZImportScriptInput,
  ZListScriptMediaInput,
  ZListScriptsInput,
  ZListScriptVersionsInput,
  ZScript,
  ZScriptExport,
  ZScriptMediaPage,
  ZScriptPage,
  ZScriptVersion,
  ZScriptVersionPage,
  ZUpdateScriptInput,
} from '../../../shared/schemas/scripts.js';
import { apiProcedure, router } from '../../trpc/trpc.js';
import { archiveScript } from './archive-script.js';
import { createScript } from './create-script.js';
import { createScriptVersion } from './create-script-version.js';
import { deleteScript } from './delete-script.js';
import { exportScript } from './export-script.js';
import { getScript } from './get-script.js';
import { importScript } from './import-script.js';
import { getScriptVersion } from './get-script-version.js';
import { listScriptVersions } from './list-script-versions.js';
import { listScripts } from './list-scripts.js';
import { deleteScriptMedia } from './delete-script-media.js';
import { listScriptMedia } from './list-script-media.js';
import { publishScript } from './publish-script.js';
import { updateScript } from './update-script.js';

const tags = ['Scripts'];

const createScriptProcedure = (path: '/v1/scripts' | '/api/scripts') =>
  apiProcedure
    .meta({
      openapi: { method: 'POST', path, tags, summary: 'Create a script', description: 'A new script is a draft at version 1.' },
      permission: 'campaigns:write',
      successStatus: 201,
      location: '/v1/scripts/{id}',
    })
    .input(ZCreateScriptInput)
    .output(ZScript)
    .mutation(({ ctx, input }) => createScript(ctx, ctx.auth, input));

export const scriptsRouter = router({
  list: apiProcedure
    .meta({ openapi: { method: 'GET', path: '/v1/scripts', tags, summary: 'List scripts' }, permission: 'campaigns:read' })
    .input(ZListScriptsInput)
    .output(ZScriptPage)
    .query(({ ctx, input }) => listScripts(ctx, ctx.auth, input)),

  create: createScriptProcedure('/v1/scripts'),
  /** The spec's `/api/scripts`: the same operation under the service's own `/api` prefix. */
  createUnderApiPrefix: createScriptProcedure('/api/scripts'),

  import: apiProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/v1/scripts/import',
        tags,
        summary: 'Import a script',
        description: 'Takes the JSON of an export; creates a new draft script.',
      },
      permission: 'campaigns:write',
      successStatus: 201,
      location: '/v1/scripts/{id}',
    })
    .input(ZImportScriptInput)
    .output(ZScript)
    .mutation(({ ctx, input }) => importScript(ctx, ctx.auth, input)),

  get: apiProcedure
    .meta({
      openapi: { method: 'GET', path: '/v1/scripts/{scriptId}', tags, summary: 'Get a script with all questions' },
      permission: 'campaigns:read',
    })
    .input(ZIdInput('scriptId'))
    .output(ZScript)
    .query(({ ctx, input }) => getScript(ctx, ctx.auth, input)),

  update: apiProcedure
    .meta({
      openapi: {
        method: 'PATCH',
        path: '/v1/scripts/{scriptId}',
        tags,
        summary: 'Update a script',
        description: 'Content changes on a published script open a new draft version.',
      },
      permission: 'campaigns:write',
      errors: ['SCRIPT_ARCHIVED'],
    })
    .input(ZUpdateScriptInput)
    .output(ZScript)
    .mutation(({ ctx, input }) => updateScript(ctx, ctx.auth, input)),

  delete: apiProcedure
    .meta({
      openapi: {
        method: 'DELETE',
        path: '/v1/scripts/{scriptId}',
        tags,
        summary: 'Delete a script',
        description: 'Refused with 409 SCRIPT_IN_USE while an active or paused campaign uses it.',
      },
      permission: 'campaigns:write',
      successStatus: 204,
      errors: ['SCRIPT_IN_USE'],
    })
    .input(ZIdInput('scriptId'))
    .output(z.void())
    .mutation(({ ctx, input }) => deleteScript(ctx, ctx.auth, input)),

  publish: apiProcedure
    .meta({
      openapi: { method: 'POST', path: '/v1/scripts/{scriptId}/publish', tags, summary: 'Publish the newest version' },
      permission: 'campaigns:write',
      errors: ['SCRIPT_ARCHIVED'],
    })
    .input(ZIdInput('scriptId'))
    .output(ZScript)
    .mutation(({ ctx, input }) => publishScript(ctx, ctx.auth, input)),

  archive: apiProcedure
    .meta({
      openapi: { method: 'POST', path: '/v1/scripts/{scriptId}/archive', tags, summary: 'Archive a script' },
      permission: 'campaigns:write',
    })
    .input(ZIdInput('scriptId'))
    .output(ZScript)
    .mutation(({ ctx, input }) => archiveScript(ctx, ctx.auth, input)),

  createVersion: apiProcedure
    .meta({
      openapi: { method: 'POST', path: '/v1/scripts/{scriptId}/versions', tags, summary: 'Create a new draft version' },
      permission: 'campaigns:write',
      successStatus: 201,
      errors: ['SCRIPT_ARCHIVED'],
    })
    .input(ZCreateScriptVersionInput)
    .output(ZScript)
    .mutation(({ ctx, input }) => createScriptVersion(ctx, ctx.auth, input)),

  listVersions: apiProcedure
    .meta({
      openapi: { method: 'GET', path: '/v1/scripts/{scriptId}/versions', tags, summary: 'List versions, newest first' },
      permission: 'campaigns:read',
    })
    .input(ZListScriptVersionsInput)
    .output(ZScriptVersionPage)
    .query(({ ctx, input }) => listScriptVersions(ctx, ctx.auth, input)),

  getVersion: apiProcedure
    .meta({
      openapi: { method: 'GET', path: '/v1/scripts/{scriptId}/versions/{version}', tags, summary: 'Get one version' },
      permission: 'campaigns:read',
    })
    .input(ZGetScriptVersionInput)
    .output(ZScriptVersion)
    .query(({ ctx, input }) => getScriptVersion(ctx, ctx.auth, input)),

  export: apiProcedure
    .meta({
      openapi: { method: 'GET', path: '/v1/scripts/{scriptId}/export', tags, summary: 'Export a script as JSON' },
      permission: 'campaigns:read',
    })
    .input(ZIdInput('scriptId'))
    .output(ZScriptExport)
    .query(({ ctx, input }) => exportScript(ctx, ctx.auth, input)),

  listMedia: apiProcedure
    .meta({
      openapi: { method: 'GET', path: '/v1/scripts/{scriptId}/media', tags, summary: 'List media files of a script' },
      permission: 'campaigns:read',
    })
    .input(ZListScriptMediaInput)
    .output(ZScriptMediaPage)
    .query(({ ctx, input }) => listScriptMedia(ctx, ctx.auth, input)),

  deleteMedia: apiProcedure
    .meta({
      openapi: { method: 'DELETE', path: '/v1/scripts/{scriptId}/media/{mediaId}', tags, summary: 'Delete a media file' },
      permission: 'campaigns:write',
      successStatus: 204,
    })
    .input(ZDeleteScriptMediaInput)
    .output(z.void())
    .mutation(({ ctx, input }) => deleteScriptMedia(ctx, ctx.auth, input)),
});
