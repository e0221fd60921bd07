import { rm } from 'node:fs/promises';
import { type NextFunction, type Request, type Response, Router } from 'express';
import { z } from 'zod';
import { ERROR_CODES } from '../../shared/error-codes.js';
import { ZSessionFile } from '../../shared/schemas/sessions.js';
import { loadSession } from '../domains/sessions/load-session.js';
import { uploadSessionFile } from '../domains/sessions/upload-session-file.js';
import { AppError } from '../errors.js';
import { sha256OfFile } from '../lib/sha256-file.js';
import type { AppServices } from '../services.js';
import { assertPermission } from '../trpc/context.js';
import { answerIdempotently, idempotencyKeyOf } from './idempotency.js';
import { pathIdOf } from './plain-inputs.js';
import { receiveUpload, uploadParser } from './uploads.js';

/** `POST /v1/sessions/{sessionId}/files` (multipart `file`): an additional file of a session, such as a screen recording. */
export function sessionFileRoutes(services: AppServices): Router {
  const { config } = services;
  const rules = { field: 'file', maxBytes: config.sessionFileMaxBytes, maxFields: 2 };
  const parser = uploadParser(config.dataDir, rules);
  const routes = Router({ caseSensitive: true, strict: true });

  routes.post('/v1/sessions/:sessionId/files', async (req: Request, res: Response, next: NextFunction) => {
    let uploaded: string | undefined;
    try {
      const auth = assertPermission(req.auth, 'sessions:write');
      const sessionId = pathIdOf(req, 'sessionId');
      idempotencyKeyOf(req);
      // An unknown session is refused before a potentially large body is read.
      await loadSession(services.orm.em.fork(), auth, { sessionId });
      await receiveUpload(req, res, parser, rules);
      uploaded = req.file?.path;
      if (!req.file || !uploaded) {
        throw new AppError('INVALID_REQUEST', 'A file is required in the multipart field "file".', { fields: [{ path: 'file', message: 'is required' }] });
      }
      const { originalname } = req.file;
      const file = uploaded;
      await answerIdempotently(
        req,
        res,
        { auth, operation: '/v1/sessions/{sessionId}/files', fingerprint: { sessionId, fileSha256: await sha256OfFile(file), filename: originalname } },
        services,
        async (em) => ({
          status: 201,
          body: await uploadSessionFile(em, services, { organizationId: auth.organizationId, sessionId, originalName: originalname, uploadedFile: file }),
        }),
      );
    } catch (error) {
      next(error);
    } finally {
      if (uploaded) await rm(uploaded, { force: true });
    }
  });
  return routes;
}

export const sessionFileOpenApiPaths = {
  '/v1/sessions/{sessionId}/files': {
    post: {
      operationId: 'sessions-uploadFile',
      tags: ['Sessions'],
      summary: 'Add a file to a session',
      description: 'multipart/form-data with a `file` field (for example a screen recording), at most SESSION_FILE_MAX_BYTES. Its type is recognised from its content; it is always downloaded, never rendered.',
      requestParams: { path: z.object({ sessionId: z.string() }) },
      requestBody: { required: true, content: { 'multipart/form-data': { schema: z.object({ file: z.string().meta({ format: 'binary' }) }) } } },
      responses: { '201': { description: 'The stored file', content: { 'application/json': { schema: ZSessionFile } } } },
      'x-permission': 'sessions:write',
      'x-error-codes': ['PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE'] satisfies (keyof typeof ERROR_CODES)[],
    },
  },
};
