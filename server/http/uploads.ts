import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Request, RequestHandler, Response } from 'express';
import multer from 'multer';
import { AppError } from '../errors.js';

export interface UploadRules {
  /** The multipart field that carries the file. */
  field: string;
  maxBytes: number;
  /** Text fields allowed beside the file. */
  maxFields: number;
}

/**
 * Multipart uploads streamed to `DATA_DIR/tmp/uploads` (memory stays flat whatever the file's
 * size), with the size limit enforced while reading. The caller removes the file afterwards.
 */
export function uploadParser(dataDir: string, rules: UploadRules): RequestHandler {
  const dest = path.join(dataDir, 'tmp', 'uploads');
  mkdirSync(dest, { recursive: true });
  return multer({
    dest,
    // Browsers send UTF-8 filenames; multer's default reads them as latin1 (café → cafÃ©).
    defParamCharset: 'utf8',
    limits: { fileSize: rules.maxBytes, files: 1, fields: rules.maxFields, fieldSize: 16 * 1024, parts: rules.maxFields + 2 },
  }).single(rules.field);
}

/** busboy's errors for a body that is not well-formed multipart: the client's to fix. */
const MALFORMED_MULTIPART = new Set([
  'Malformed part header',
  'Unexpected end of form',
  'Unexpected end of file',
  'Multipart: Boundary not found',
  'Malformed content type',
  'Missing Content-Type',
]);

/** multer's errors for a client that went away mid-body (no answer reaches it anyway). */
/** multer's words for a request stream that failed, was aborted or closed early: the client went away. */
const REQUEST_GONE = new Set(['Request error', 'Request aborted', 'Request closed']);

/**
 * What reading a multipart body failed on, as the answer: the client's faults (a malformed body,
 * a limit, an unexpected field, a body cut short) are 4xx. Anything else is the server's (the
 * temporary directory full, unwritable or failing: ENOSPC, EACCES, EIO…, or a bug) and stays
 * what it is: the error handler answers 500 INTERNAL_ERROR, logs it with its cause and counts it.
 */
function uploadError(error: unknown, rules: UploadRules): unknown {
  if (error instanceof multer.MulterError) {
    if (error.code === 'LIMIT_FILE_SIZE') {
      return new AppError('PAYLOAD_TOO_LARGE', `Files may be at most ${rules.maxBytes} bytes.`, { limitBytes: rules.maxBytes });
    }
    const field = error.field ?? rules.field;
    return new AppError('INVALID_REQUEST', `Invalid upload: ${error.message}.`, { fields: [{ path: field, message: error.message }] });
  }
  if (!(error instanceof Error)) return error;
  if (MALFORMED_MULTIPART.has(error.message)) return new AppError('INVALID_REQUEST', `The multipart body could not be read: ${error.message}.`);
  if (REQUEST_GONE.has(error.message) || (error as NodeJS.ErrnoException).code === 'ECONNRESET') {
    return new AppError('INVALID_REQUEST', 'The request body ended before it was complete.');
  }
  return error;
}

/** Reads a multipart request (415 when it is not multipart); its file lands in `req.file`, its fields in `req.body`. */
export async function receiveUpload(req: Request, res: Response, parser: RequestHandler, rules: UploadRules): Promise<void> {
  if (!req.is('multipart/form-data')) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', `Send the file as multipart/form-data in a field named "${rules.field}".`, {
      fields: [{ path: rules.field, message: 'is required' }],
    });
  }
  await new Promise<void>((resolve, reject) => parser(req, res, (error: unknown) => (error ? reject(uploadError(error, rules)) : resolve())));
}

/** A text field given once at most (multipart repeats arrive as arrays). */
export function singleField(req: Request, name: string): string | undefined {
  const value: unknown = req.body?.[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string')
    throw new AppError('INVALID_REQUEST', `${name} may be given once.`, { fields: [{ path: name, message: 'may be given once' }] });
  return value;
}
