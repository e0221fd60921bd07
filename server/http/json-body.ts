import { isUtf8 } from 'node:buffer';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { AppError } from '../errors.js';
import { findTooDeep } from '../lib/text-safety.js';
import { isTrpcBatch } from './authenticate.js';
import { INVALID_UTF8 } from './error-envelope.js';

/** Whether the request carries a body at all (a declared length above 0, or chunked). */
function hasRequestBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined;
}

export function unsupportedMediaType(req: Request): AppError {
  const given = req.get('content-type');
  return new AppError(
    'UNSUPPORTED_MEDIA_TYPE',
    `The request body must be JSON, sent with "Content-Type: application/json"${req.method === 'PATCH' ? ' or "application/merge-patch+json"' : ''}${given ? ` (got "${given.slice(0, 100)}")` : ''}.`,
    { contentType: given ?? null },
  );
}

/** The request's media type, lower case without parameters; undefined when none is declared. */
function mediaTypeOf(req: Request): string | undefined {
  // Read from the header itself: `req.is` answers null for a body-less request whatever it declares.
  return req.headers['content-type']?.split(';')[0]!.trim().toLowerCase();
}

/** JSON, and on PATCH also JSON Merge Patch (RFC 7396), which is what PATCH bodies are here. */
function isAcceptedJson(req: Request, mediaType: string): boolean {
  return mediaType === 'application/json' || (req.method === 'PATCH' && mediaType === 'application/merge-patch+json');
}

/**
 * JSON request bodies: `application/json` (on PATCH also `application/merge-patch+json`), UTF-8
 * only. Invalid UTF-8 would otherwise be decoded into U+FFFD and stored as if the client had sent
 * it: refused (400) instead. So is input nested deeper than MAX_INPUT_DEPTH (400, naming where),
 * before anything recursive reads it: REST and /trpc (`inputsOf`: the calls of a batch, a GET's
 * `input`) draw the line at the same depth.
 */
export function parseJsonBody(limitBytes: number, inputsOf: (req: Request) => unknown[] = (req) => [req.body]): RequestHandler[] {
  return [parseJson(limitBytes), refuseTooDeep(inputsOf)];
}

/**
 * The inputs of a `/trpc` request, as tRPC will read them: the body or a GET's `input` parameter,
 * split into its calls for a batch (`{"0": …, "1": …}`), so each call's input is measured from its
 * own root as REST measures its body.
 */
export function trpcCallInputs(req: Request): unknown[] {
  let raw: unknown = req.body;
  if (req.method === 'GET' || req.method === 'HEAD') {
    const input = req.query.input;
    if (typeof input !== 'string') return [];
    try {
      raw = JSON.parse(input);
    } catch {
      return []; // tRPC answers its own parse error
    }
  }
  if (isTrpcBatch(req) && typeof raw === 'object' && raw !== null && !Array.isArray(raw)) return Object.values(raw);
  return [raw];
}

function refuseTooDeep(inputsOf: (req: Request) => unknown[]): RequestHandler {
  return (req, _res, next) => {
    for (const input of inputsOf(req)) {
      const found = findTooDeep(input);
      if (found) return next(new AppError('INVALID_REQUEST', `${found.path} ${found.message}.`, { fields: [found] }));
    }
    next();
  };
}

function parseJson(limitBytes: number): RequestHandler {
  return express.json({
    limit: limitBytes,
    strict: true,
    type: (req) => {
      const mediaType = mediaTypeOf(req as Request);
      return mediaType !== undefined && isAcceptedJson(req as Request, mediaType);
    },
    verify: (_req, _res, buffer) => {
      if (!isUtf8(buffer)) throw Object.assign(new Error('The request body is not valid UTF-8.'), { type: INVALID_UTF8 });
    },
  });
}

/** A body, or a `Content-Type` saying one is coming, in anything but JSON (any parameters; merge patch on PATCH). */
export function isNotJson(req: Request): boolean {
  const mediaType = mediaTypeOf(req);
  if (mediaType !== undefined) return !isAcceptedJson(req, mediaType);
  return hasRequestBody(req);
}

/** For routes that take nothing but JSON (`/trpc`): any other body is 415 before it is read. */
export function requireJsonBody(req: Request, _res: Response, next: NextFunction): void {
  if (isNotJson(req)) next(unsupportedMediaType(req));
  else next();
}
