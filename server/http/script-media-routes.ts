import { rm } from 'node:fs/promises';
import { z } from 'zod';
import { MEDIA_ALT_MAX_LENGTH, ZScriptMedia } from '../../shared/schemas/scripts.js';
import { assertNotArchived, loadScript } from '../domains/scripts/load-script.js';
import { ACCEPTED_MEDIA_DESCRIPTION, uploadScriptMedia } from '../domains/scripts/upload-script-media.js';
import { AppError, validationError } from '../errors.js';
import { sha256OfFile } from '../lib/sha256-file.js';
import { answerIdempotently, idempotencyKeyOf, sendJsonAnswer } from './idempotency.js';
import { defineStreamOperation } from './stream-operation.js';
import { receiveUpload, singleField, uploadParser } from './uploads.js';

/**
 * `POST /v1/scripts/{scriptId}/media` (multipart: `file`, optional `questionId` and `alt`): the
 * same domain function as the tRPC procedures, behind a multipart body.
 */
export const uploadScriptMediaOperation = defineStreamOperation({
  method: 'POST',
  path: '/v1/scripts/{scriptId}/media',
  permission: 'campaigns:write',
  openapi: {
    operationId: 'scripts-uploadMedia',
    tags: ['Scripts'],
    summary: 'Upload an image or audio file for a script',
    description: `multipart/form-data with a \`file\` field (${ACCEPTED_MEDIA_DESCRIPTION}; type recognised from content), an optional \`questionId\` and an optional \`alt\` (text alternative, at most ${MEDIA_ALT_MAX_LENGTH} characters: what an image shows, read by screen readers on the interview page; optional so existing clients keep working, but give it for every image). Size limits: MEDIA_MAX_IMAGE_BYTES and MEDIA_MAX_AUDIO_BYTES.`,
    requestBody: {
      required: true,
      content: {
        'multipart/form-data': {
          schema: z.object({
            file: z.string().meta({ format: 'binary' }),
            questionId: z.string().optional(),
            alt: z.string().max(MEDIA_ALT_MAX_LENGTH).optional(),
          }),
        },
      },
    },
    responses: {
      '201': { description: 'The stored media file', content: { 'application/json': { schema: ZScriptMedia } } },
    },
    errors: ['SCRIPT_ARCHIVED', 'PAYLOAD_TOO_LARGE'],
  },
  handler: (services) => {
    const { config } = services;
    const rules = { field: 'file', maxBytes: Math.max(config.mediaMaxImageBytes, config.mediaMaxAudioBytes), maxFields: 5 };
    const parser = uploadParser(config.dataDir, rules);
    return async ({ operation, req, res, caller, path: { scriptId } }) => {
      let uploadedFile: string | undefined;
      try {
        // A malformed key is refused before a potentially large body is read, as is an unknown or archived script.
        idempotencyKeyOf(req);
        assertNotArchived(await loadScript(services.orm.em.fork(), caller, { scriptId }));
        await receiveUpload(req, res, parser, rules);
        uploadedFile = req.file?.path;
        if (!req.file || !uploadedFile) {
          throw new AppError('INVALID_REQUEST', `A file is required: ${ACCEPTED_MEDIA_DESCRIPTION}.`, {
            fields: [{ path: 'file', message: 'is required' }],
          });
        }
        const rawQuestionId = singleField(req, 'questionId');
        const questionId = rawQuestionId === '' ? undefined : rawQuestionId;
        const alt = altTextOf(singleField(req, 'alt'));
        const { originalname } = req.file;
        const file = uploadedFile;
        // The key is claimed only once the upload is read and checked, so a refused upload can be retried with it.
        const answer = await answerIdempotently(
          req,
          res,
          {
            auth: caller,
            operation,
            fingerprint: { scriptId, fileSha256: await sha256OfFile(file), filename: originalname, questionId: questionId ?? null, alt: alt ?? null },
          },
          services,
          async ({ em }) => ({
            status: 201,
            body: await uploadScriptMedia({ em, services }, caller, { scriptId, questionId, alt, originalName: originalname, uploadedFile: file }),
          }),
        );
        sendJsonAnswer(res, answer);
      } finally {
        if (uploadedFile) await rm(uploadedFile, { force: true });
      }
    };
  },
});

/**
 * The `alt` field: trimmed, empty is none; at most MEDIA_ALT_MAX_LENGTH characters, no control
 * characters but line breaks (it is read aloud and shown as text, never as markup).
 */
function altTextOf(raw: string | undefined): string | undefined {
  const alt = raw?.trim();
  if (!alt) return undefined;
  if (alt.length > MEDIA_ALT_MAX_LENGTH) throw validationError([{ path: 'alt', message: `must be at most ${MEDIA_ALT_MAX_LENGTH} characters` }]);
  if (/[\u0000-\u0009\u000b-\u001f\u007f]/.test(alt)) throw validationError([{ path: 'alt', message: 'must not contain control characters' }]);
  return alt;
}
