import type { ParticipantAuth } from '../domains/common/caller.js';
import { rm } from 'node:fs/promises';
import { type NextFunction, type Request, type Response, Router } from 'express';
import { z } from 'zod';
import { ERROR_CODES } from '../../shared/error-codes.js';
import {
  ZAudioAnswerFields,
  ZFeedback,
  ZFeedbackInput,
  ZInterviewState,
  ZParticipantSession,
  ZStartInterviewInput,
  ZTextAnswerInput,
} from '../../shared/schemas/sessions.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import { commitAnswer, discardAnswer, type ParticipantAnswer, type PreparedAnswer, prepareAnswer } from '../domains/sessions/answer-interview.js';
import { endInterview } from '../domains/sessions/end-interview.js';
import { invalidInviteToken } from '../domains/sessions/participant-access.js';
import { startInterview } from '../domains/sessions/start-interview.js';
import { submitFeedback } from '../domains/sessions/submit-feedback.js';
import { AppError, validationError } from '../errors.js';
import { sha256OfFile } from '../lib/sha256-file.js';
import { deviceFromUserAgent } from '../lib/user-agent.js';
import type { AppServices } from '../services.js';
import { answerIdempotently } from './idempotency.js';
import { isNotJson, unsupportedMediaType } from './json-body.js';
import { checkedInput } from './plain-inputs.js';
import { receiveUpload, uploadParser } from './uploads.js';

/** The participant's invite token is the credential here, never an API key. */
function participantOf(req: Request): ParticipantAuth {
  if (req.auth?.kind !== 'participant') throw invalidInviteToken('Send the invite token as "Authorization: Bearer <invite token>".');
  return req.auth;
}

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
  if (typeof value !== 'string') throw new AppError('INVALID_REQUEST', `${name} may be given once.`, { fields: [{ path: name, message: 'may be given once' }] });
  try {
    return { ...body, [name]: JSON.parse(value) as unknown };
  } catch {
    throw validationError([{ path: name, message: 'must be a JSON object' }]);
  }
}

/**
 * The participant API (design.md "Participant API"): what the interview page, the embed and any
 * custom client use, with the invite token as bearer. Every call counts against the participant
 * budgets (authenticateRequests), never a customer's key. POSTs honour Idempotency-Key (kept
 * apart per invite), so a retried answer is never taken as the answer to the next question.
 */
export function participantApiRoutes(services: AppServices): Router {
  const { config } = services;
  // Every text field of a multipart answer may come at once.
  const audioRules = { field: 'audio', maxBytes: config.sessionAudioMaxBytes, maxFields: Object.keys(ZAudioAnswerFields.shape).length };
  const parseAudio = uploadParser(config.dataDir, audioRules);
  const routes = Router({ caseSensitive: true, strict: true });

  routes.post('/api/interview/start', async (req: Request, res: Response, next: NextFunction) => {
    try {
      const participant = participantOf(req);
      const input = jsonInput(req, ZStartInterviewInput);
      await answerIdempotently(req, res, { auth: participant, operation: '/api/interview/start', fingerprint: input }, services, async (em) => {
        const { state, created } = await startInterview(em, services, participant, {
          device: input.device ?? deviceFromUserAgent(req.get('user-agent')),
          voice: input.voice,
        });
        // A resumed interview creates nothing: 200 with the same session and its pending turn.
        return { status: created ? 201 : 200, body: state };
      });
    } catch (error) {
      next(error);
    }
  });

  // Storing and transcribing audio and asking the interviewer happen before the transaction that writes the turn.
  const commit = async (em: EntityManager, prepared: PreparedAnswer) => ({ status: 200, body: await commitAnswer(em, services, prepared) });

  routes.post('/api/interview/answer', async (req: Request, res: Response, next: NextFunction) => {
    let uploaded: string | undefined;
    try {
      const participant = participantOf(req);
      const answering = (answer: ParticipantAnswer) => ({
        prepare: (em: EntityManager) => prepareAnswer(em, services, participant, answer),
        discard: (prepared: PreparedAnswer) => discardAnswer(services, prepared),
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
        await answerIdempotently(req, res, { auth: participant, operation: '/api/interview/answer', fingerprint }, services, commit, answering({ ...fields.data, audio }));
        return;
      }
      const input = jsonInput(req, ZTextAnswerInput);
      await answerIdempotently(req, res, { auth: participant, operation: '/api/interview/answer', fingerprint: input }, services, commit, answering(input));
    } catch (error) {
      next(error);
    } finally {
      if (uploaded) await rm(uploaded, { force: true });
    }
  });

  routes.post('/api/interview/end', async (req: Request, res: Response, next: NextFunction) => {
    try {
      const participant = participantOf(req);
      jsonInput(req, z.strictObject({}));
      await answerIdempotently(req, res, { auth: participant, operation: '/api/interview/end', fingerprint: {} }, services, async (em) => ({
        status: 200,
        body: await endInterview(em, participant),
      }));
    } catch (error) {
      next(error);
    }
  });

  routes.post('/api/interview/feedback', async (req: Request, res: Response, next: NextFunction) => {
    try {
      const participant = participantOf(req);
      const input = jsonInput(req, ZFeedbackInput);
      await answerIdempotently(req, res, { auth: participant, operation: '/api/interview/feedback', fingerprint: input }, services, async (em) => ({
        status: 201,
        body: await submitFeedback(em, participant, input),
      }));
    } catch (error) {
      next(error);
    }
  });

  return routes;
}

const participantSecurity = [{ inviteToken: [] }];

/** OpenAPI description of the participant API (plain routes), merged into the generated document. */
export const participantApiOpenApiPaths = {
  '/api/interview/start': {
    post: {
      operationId: 'interview-start',
      tags: ['Participant API'],
      summary: 'Start (or resume) the interview of an invite',
      description:
        'Bearer: the invite token. 201 with a new session and its first question (`turn`); 200 with the same session and its pending turn when the invite has an unfinished one. With `requireConsent` the session waits (`turn` null) until `POST /v1/sessions/{id}/consent`.',
      security: participantSecurity,
      requestBody: { required: false, content: { 'application/json': { schema: ZStartInterviewInput } } },
      responses: {
        '201': { description: 'A new session', content: { 'application/json': { schema: ZInterviewState } } },
        '200': { description: 'The unfinished session, resumed', content: { 'application/json': { schema: ZInterviewState } } },
      },
      'x-permission': 'invite token',
      'x-error-codes': ['INVALID_INVITE_TOKEN', 'INSUFFICIENT_CREDITS', 'INVITE_EXPIRED', 'INVITE_ALREADY_USED', 'CAMPAIGN_NOT_ACTIVE', 'SHARE_LINK_CLOSED'] satisfies (keyof typeof ERROR_CODES)[],
    },
  },
  '/api/interview/answer': {
    post: {
      operationId: 'interview-answer',
      tags: ['Participant API'],
      summary: 'Answer the pending question',
      description:
        'JSON `{text, startTime?, endTime?, confidence?, voiceTiming?}`, or multipart with `audio` (WebM, Ogg, WAV, MP3 or M4A, recognised from its content; at most SESSION_AUDIO_MAX_BYTES), optional `text` (the browser\'s own transcript) and optional `voiceTiming` (the VoiceTiming object as JSON text). Audio without text is transcribed by the configured speech-to-text. Answers with the next turn, or `turn: null` and `closing` when the interview is complete.',
      security: participantSecurity,
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
      'x-permission': 'invite token',
      'x-error-codes': [
        'INVALID_INVITE_TOKEN',
        'SESSION_NOT_ACTIVE',
        'TURN_ALREADY_ANSWERED',
        'RECORDING_NOT_CONSENTED',
        'PAYLOAD_TOO_LARGE',
        'UNSUPPORTED_MEDIA_TYPE',
      ] satisfies (keyof typeof ERROR_CODES)[],
    },
  },
  '/api/interview/end': {
    post: {
      operationId: 'interview-end',
      tags: ['Participant API'],
      summary: 'Leave the interview',
      description: 'An unfinished session is abandoned (its minutes billed, its transcript generated); a finished one is returned as it is.',
      security: participantSecurity,
      responses: { '200': { description: 'The session', content: { 'application/json': { schema: z.object({ session: ZParticipantSession }) } } } },
      'x-permission': 'invite token',
      'x-error-codes': ['INVALID_INVITE_TOKEN', 'SESSION_NOT_ACTIVE'] satisfies (keyof typeof ERROR_CODES)[],
    },
  },
  '/api/interview/feedback': {
    post: {
      operationId: 'interview-feedback',
      tags: ['Participant API'],
      summary: 'Give feedback on the finished interview (once)',
      security: participantSecurity,
      requestBody: { required: true, content: { 'application/json': { schema: ZFeedbackInput } } },
      responses: { '201': { description: 'The feedback', content: { 'application/json': { schema: z.object({ feedback: ZFeedback }) } } } },
      'x-permission': 'invite token',
      'x-error-codes': ['INVALID_INVITE_TOKEN', 'SESSION_NOT_ACTIVE', 'FEEDBACK_ALREADY_SUBMITTED'] satisfies (keyof typeof ERROR_CODES)[],
    },
  },
};
