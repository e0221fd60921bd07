import { rm } from 'node:fs/promises';
import type { Request } from 'express';
import { z } from 'zod';
import { ZAudioAnswerFields, ZInterviewState, ZTextAnswerInput } from '../../shared/schemas/sessions.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import { commitAnswer, discardAnswer, type ParticipantAnswer, type PreparedAnswer, prepareAnswer } from '../domains/sessions/answer-interview.js';
import { AppError, validationError } from '../errors.js';
import { sha256OfFile } from '../lib/sha256-file.js';
import { INVITE_TOKEN } from '../trpc/trpc.js';
import { answerIdempotently, type IdempotentUnit, sendJsonAnswer } from './idempotency.js';
import { isNotJson, unsupportedMediaType } from './json-body.js';
import { checkedInput, defineStreamOperation } from './stream-operation.js';
import { receiveUpload, uploadParser } from './uploads.js';

/** A JSON body checked against its schema (an absent body is `{}`); 400/422 with field paths otherwise. */
function jsonInput<T extends z.ZodType>(req: Request, schema: T): z.infer<T> {
  if (req.body === undefined && isNotJson(req)) throw unsupportedMediaType(req);
  return checkedInput(req.body ?? {}, schema, 'body');
}

/**
 * A multipart field that carries an object as JSON text (`voiceTiming`), read into that object so
 * it is checked like the JSON body's (422 naming `voiceTiming.endOfTurnAt`); text that is not JSON
 * is a present field breaking its format: 422 naming the field.
 */
function withJsonField(body: Record<string, unknown>, name: string): Record<string, unknown> {
  const value = body[name];
  if (value === undefined) return body;
  if (typeof value !== 'string')
    throw new AppError('INVALID_REQUEST', `${name} may be given once.`, { fields: [{ path: name, message: 'may be given once' }] });
  try {
    return { ...body, [name]: JSON.parse(value) as unknown };
  } catch {
    throw validationError([{ path: name, message: 'must be a JSON object' }]);
  }
}

/**
 * `POST /api/interview/answer`, the participant API's one operation with a body that may not be
 * JSON (an answer's recording). Its other operations are procedures (domains/sessions/router.ts).
 * Idempotency-Key is kept apart per invite, so a retried answer is never taken as the answer to
 * the next question.
 */
export const answerInterviewOperation = defineStreamOperation({
  method: 'POST',
  path: '/api/interview/answer',
  permission: INVITE_TOKEN,
  openapi: {
    operationId: 'interview-answer',
    tags: ['Participant API'],
    summary: 'Answer the pending question',
    description:
      "JSON `{text, startTime?, endTime?, confidence?, voiceTiming?}`, or multipart with `audio` (WebM, Ogg, WAV, MP3 or M4A, recognised from its content; at most SESSION_AUDIO_MAX_BYTES), optional `text` (the browser's own transcript) and optional `voiceTiming` (the VoiceTiming object as JSON text). Audio without text is transcribed by the configured speech-to-text. Answers with the next turn, or `turn: null` and `closing` when the interview is complete.",
    requestBody: {
      required: true,
      content: {
        'application/json': { schema: ZTextAnswerInput },
        'multipart/form-data': {
          schema: ZAudioAnswerFields.extend({
            audio: z.string().meta({ format: 'binary' }),
            voiceTiming: z.string().optional().meta({ description: 'The VoiceTiming object (see the JSON body) as JSON text.' }),
          }),
        },
      },
    },
    responses: { '200': { description: 'The next turn', content: { 'application/json': { schema: ZInterviewState } } } },
    errors: ['INVALID_INVITE_TOKEN', 'SESSION_NOT_ACTIVE', 'TURN_ALREADY_ANSWERED', 'RECORDING_NOT_CONSENTED', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE'],
  },
  handler: (services) => {
    const { config } = services;
    // Every text field of a multipart answer may come at once.
    const audioRules = { field: 'audio', maxBytes: config.sessionAudioMaxBytes, maxFields: Object.keys(ZAudioAnswerFields.shape).length };
    const parseAudio = uploadParser(config.dataDir, audioRules);
    // Storing and transcribing audio and asking the interviewer happen before the transaction that writes the turn.
    const commit = async ({ em }: IdempotentUnit, prepared: PreparedAnswer) => ({ status: 200, body: await commitAnswer({ em, services }, prepared) });
    return async ({ operation, req, res, caller: participant }) => {
      let uploaded: string | undefined;
      try {
        const answering = (answer: ParticipantAnswer) => ({
          preparation: {
            prepare: (em: EntityManager) => prepareAnswer({ em, services }, participant, answer),
            discard: (prepared: PreparedAnswer) => discardAnswer({ services }, prepared),
          },
        });
        if (req.is('multipart/form-data')) {
          await receiveUpload(req, res, parseAudio, audioRules);
          uploaded = req.file?.path;
          const fields = { data: checkedInput(withJsonField(req.body ?? {}, 'voiceTiming'), ZAudioAnswerFields, 'body') };
          if (!uploaded) {
            throw new AppError('INVALID_REQUEST', 'A multipart answer carries its recording in a field named "audio".', {
              fields: [{ path: 'audio', message: 'is required' }],
            });
          }
          const sha256 = await sha256OfFile(uploaded);
          const fingerprint = { ...fields.data, audioSha256: sha256 };
          const audio = { file: uploaded, sha256 };
          sendJsonAnswer(
            res,
            await answerIdempotently(req, res, { auth: participant, operation, fingerprint }, services, commit, answering({ ...fields.data, audio })),
          );
          return;
        }
        const input = jsonInput(req, ZTextAnswerInput);
        sendJsonAnswer(res, await answerIdempotently(req, res, { auth: participant, operation, fingerprint: input }, services, commit, answering(input)));
      } finally {
        if (uploaded) await rm(uploaded, { force: true });
      }
    };
  },
});
