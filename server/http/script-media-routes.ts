import { mkdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { type NextFunction, type Request, type Response, Router } from 'express';
import multer from 'multer';
import { z } from 'zod';
import { ERROR_CODES } from '../../shared/error-codes.js';
import { ZScriptMedia } from '../../shared/schemas/scripts.js';
import { assertNotArchived, loadScript } from '../domains/scripts/load-script.js';
import { findScriptMediaForDownload } from '../domains/scripts/find-script-media-for-download.js';
import { ACCEPTED_MEDIA_DESCRIPTION, uploadScriptMedia } from '../domains/scripts/upload-script-media.js';
import { sha256OfFile } from '../lib/sha256-file.js';
import { AppError } from '../errors.js';
import { describeError } from './error-envelope.js';
import type { IdempotencyClaim } from '../platform/idempotency-store.js';
import { claimOrReplay, idempotencyKeyOf, requestFingerprint, runWithClaim, settleWithAnswer } from './idempotency.js';
import type { AppServices } from '../services.js';
import { assertPermission } from '../trpc/context.js';
import { findUnstorableText } from '../lib/text-safety.js';
import { FileNotFoundError } from '../storage/file-storage.js';

function multerErrorToAppError(error: multer.MulterError, maxBytes: number): AppError {
  if (error.code === 'LIMIT_FILE_SIZE') {
    return new AppError('PAYLOAD_TOO_LARGE', `Files may be at most ${maxBytes} bytes.`, { limitBytes: maxBytes });
  }
  const field = error.field ?? 'file';
  return new AppError('INVALID_REQUEST', `Invalid upload: ${error.message}.`, { fields: [{ path: field, message: error.message }] });
}

/**
 * `POST /v1/scripts/{scriptId}/media` (multipart: `file`, optional `questionId`) and the signed
 * download route `GET /files/{token}`. Multipart and binary bodies are plain Express routes
 * around the same domain functions as the tRPC procedures.
 */
export function scriptMediaRoutes(services: AppServices): { upload: Router; download: Router } {
  const { config } = services;
  const uploadDir = path.join(config.dataDir, 'tmp', 'uploads');
  mkdirSync(uploadDir, { recursive: true });
  const maxBytes = Math.max(config.mediaMaxImageBytes, config.mediaMaxAudioBytes);
  const parseUpload = multer({
    dest: uploadDir,
    // Browsers send UTF-8 filenames; multer's default reads them as latin1 (café → cafÃ©).
    defParamCharset: 'utf8',
    limits: { fileSize: maxBytes, files: 1, fields: 5, fieldSize: 1024, parts: 8 },
  }).single('file');

  const upload = Router();
  upload.post('/v1/scripts/:scriptId/media', async (req: Request, res: Response, next: NextFunction) => {
    let uploadedFile: string | undefined;
    let claim: IdempotencyClaim | undefined;
    const keys = services.orm.em.fork();
    try {
      const auth = assertPermission(req.auth, 'campaigns:write');
      const scriptId = String(req.params.scriptId);
      if (findUnstorableText(scriptId)) throw new AppError('RESOURCE_NOT_FOUND', 'The resource was not found.');
      const idempotencyKey = idempotencyKeyOf(req);
      const em = services.orm.em.fork();
      // Refuse unknown or archived scripts before reading a potentially large body.
      assertNotArchived(await loadScript(em, auth.organizationId, scriptId));
      if (!req.is('multipart/form-data')) {
        throw new AppError('INVALID_REQUEST', 'Send the file as multipart/form-data in a field named "file".', {
          fields: [{ path: 'file', message: 'is required' }],
        });
      }
      await new Promise<void>((resolve, reject) =>
        parseUpload(req, res, (error: unknown) => {
          if (error instanceof multer.MulterError) reject(multerErrorToAppError(error, maxBytes));
          else if (error) reject(new AppError('INVALID_REQUEST', 'The multipart body could not be read.'));
          else resolve();
        }),
      );
      uploadedFile = req.file?.path;
      if (!req.file || !uploadedFile) {
        throw new AppError('INVALID_REQUEST', `A file is required: ${ACCEPTED_MEDIA_DESCRIPTION}.`, {
          fields: [{ path: 'file', message: 'is required' }],
        });
      }
      const rawQuestionId: unknown = req.body?.questionId;
      if (rawQuestionId !== undefined && typeof rawQuestionId !== 'string') {
        throw new AppError('INVALID_REQUEST', 'questionId may be given once.', { fields: [{ path: 'questionId', message: 'may be given once' }] });
      }
      const questionId = rawQuestionId === '' ? undefined : rawQuestionId;
      if (idempotencyKey) {
        // Claimed only once the upload is read and checked, so a refused upload can be retried with the same key.
        const claimed = await claimOrReplay(keys, res, {
          organizationId: auth.organizationId,
          key: idempotencyKey,
          requestHash: requestFingerprint(req.method, '/v1/scripts/{scriptId}/media', {
            scriptId,
            fileSha256: await sha256OfFile(uploadedFile),
            filename: req.file.originalname,
            questionId: questionId ?? null,
          }),
          sealer: services.sealer,
        });
        if (claimed === 'replayed') return;
        claim = claimed;
      }
      const file = { originalName: req.file.originalname, path: uploadedFile };
      const upload = (db: typeof em) =>
        uploadScriptMedia(
          db,
          { storage: services.storage, signer: services.signer, limits: { maxImageBytes: config.mediaMaxImageBytes, maxAudioBytes: config.mediaMaxAudioBytes } },
          { organizationId: auth.organizationId, scriptId, questionId, originalName: file.originalName, uploadedFile: file.path },
        );
      const media = claim ? (await runWithClaim(keys, claim, res, config, 201, upload)).result : await upload(em);
      if (!res.headersSent) res.status(201).json(media);
    } catch (error) {
      if (claim) {
        // The error handler describes the same error the same way: store (or release) what it will send.
        await settleWithAnswer(keys, claim, res, describeError(error), services.logger);
      }
      next(error);
    } finally {
      if (uploadedFile) await rm(uploadedFile, { force: true });
    }
  });

  const download = Router();
  download.get('/files/:token', async (req: Request, res: Response, next: NextFunction) => {
    try {
      const claims = await services.signer.verifyFileToken(String(req.params.token));
      const media = claims ? await findScriptMediaForDownload(services.orm.em.fork(), claims.fileId) : null;
      if (!media) throw new AppError('RESOURCE_NOT_FOUND', 'This link is invalid or has expired.');
      let stream;
      try {
        stream = await services.storage.open(media.storageKey);
      } catch (error) {
        if (error instanceof FileNotFoundError) throw new AppError('RESOURCE_NOT_FOUND', 'The file is no longer available.');
        throw error;
      }
      res.setHeader('Content-Type', media.contentType);
      res.setHeader('Content-Length', String(media.sizeBytes));
      res.setHeader('Content-Disposition', `inline; filename="${media.filename.replace(/[^\x20-\x7e]/g, '_')}"`);
      res.setHeader('X-Content-Type-Options', 'nosniff');
      res.setHeader('Cache-Control', 'private, max-age=300');
      stream.on('error', next);
      stream.pipe(res);
    } catch (error) {
      next(error);
    }
  });

  return { upload, download };
}

/** OpenAPI description of the plain routes above, merged into the generated document. */
export const scriptMediaOpenApiPaths = {
  '/v1/scripts/{scriptId}/media': {
    post: {
      operationId: 'scripts-uploadMedia',
      tags: ['Scripts'],
      summary: 'Upload an image or audio file for a script',
      description: `multipart/form-data with a \`file\` field (${ACCEPTED_MEDIA_DESCRIPTION}; type recognised from content) and an optional \`questionId\`. Size limits: MEDIA_MAX_IMAGE_BYTES and MEDIA_MAX_AUDIO_BYTES.`,
      requestParams: { path: z.object({ scriptId: z.string() }) },
      requestBody: {
        required: true,
        content: {
          'multipart/form-data': {
            schema: z.object({
              file: z.string().meta({ format: 'binary' }),
              questionId: z.string().optional(),
            }),
          },
        },
      },
      responses: {
        '201': { description: 'The stored media file', content: { 'application/json': { schema: ZScriptMedia } } },
      },
      'x-permission': 'campaigns:write',
      'x-error-codes': ['SCRIPT_ARCHIVED', 'PAYLOAD_TOO_LARGE'] satisfies (keyof typeof ERROR_CODES)[],
    },
  },
};
