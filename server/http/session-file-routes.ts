import { rm } from 'node:fs/promises';
import { z } from 'zod';
import { ZSessionFile } from '../../shared/schemas/sessions.js';
import { loadSession } from '../domains/sessions/load-session.js';
import { uploadSessionFile } from '../domains/sessions/upload-session-file.js';
import { AppError } from '../errors.js';
import { sha256OfFile } from '../lib/sha256-file.js';
import { answerIdempotently, idempotencyKeyOf, sendJsonAnswer } from './idempotency.js';
import { defineStreamOperation } from './stream-operation.js';
import { receiveUpload, uploadParser } from './uploads.js';

/** `POST /v1/sessions/{sessionId}/files` (multipart `file`): an additional file of a session, such as a screen recording. */
export const uploadSessionFileOperation = defineStreamOperation({
  method: 'POST',
  path: '/v1/sessions/{sessionId}/files',
  permission: 'sessions:write',
  openapi: {
    operationId: 'sessions-uploadFile',
    tags: ['Sessions'],
    summary: 'Add a file to a session',
    description:
      'multipart/form-data with a `file` field (for example a screen recording), at most SESSION_FILE_MAX_BYTES. Its type is recognised from its content; it is always downloaded, never rendered.',
    requestBody: { required: true, content: { 'multipart/form-data': { schema: z.object({ file: z.string().meta({ format: 'binary' }) }) } } },
    responses: { '201': { description: 'The stored file', content: { 'application/json': { schema: ZSessionFile } } } },
    errors: ['PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE'],
  },
  handler: (services) => {
    const rules = { field: 'file', maxBytes: services.config.sessionFileMaxBytes, maxFields: 2 };
    const parser = uploadParser(services.config.dataDir, rules);
    return async ({ operation, req, res, caller, path: { sessionId } }) => {
      let uploaded: string | undefined;
      try {
        idempotencyKeyOf(req);
        // An unknown session is refused before a potentially large body is read.
        await loadSession(services.orm.em.fork(), caller, { sessionId });
        await receiveUpload(req, res, parser, rules);
        uploaded = req.file?.path;
        if (!req.file || !uploaded) {
          throw new AppError('INVALID_REQUEST', 'A file is required in the multipart field "file".', { fields: [{ path: 'file', message: 'is required' }] });
        }
        const { originalname } = req.file;
        const file = uploaded;
        const answer = await answerIdempotently(
          req,
          res,
          { auth: caller, operation, fingerprint: { sessionId, fileSha256: await sha256OfFile(file), filename: originalname } },
          services,
          async ({ em }) => ({
            status: 201,
            body: await uploadSessionFile({ em, services }, caller, { sessionId, originalName: originalname, uploadedFile: file }),
          }),
        );
        sendJsonAnswer(res, answer);
      } finally {
        if (uploaded) await rm(uploaded, { force: true });
      }
    };
  },
});
