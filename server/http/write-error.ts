import type { NextFunction, Request, Response } from 'express';
import { describeError, type DescribedError } from './error-envelope.js';
import type { Logger } from '../logger.js';

export function writeError(res: Response, described: DescribedError): void {
  if (res.headersSent) {
    // A complete answer (the request timeout's 503) stays; a half-written one is cut off.
    if (!res.writableEnded) res.destroy();
    return;
  }
  for (const [name, value] of Object.entries(described.headers)) res.setHeader(name, value);
  res.status(described.status).json(described.body);
}

/**
 * A handler finishing after the request timeout already answered 503 fails to write its own
 * answer: expected, not a server fault (its outcome is not lost: see the idempotency notes).
 */
export function isWriteAfterTimeout(error: unknown): boolean {
  const own = (error as NodeJS.ErrnoException | null)?.code;
  const cause = (error as { cause?: NodeJS.ErrnoException } | null)?.cause?.code;
  return own === 'ERR_HTTP_HEADERS_SENT' || cause === 'ERR_HTTP_HEADERS_SENT';
}

/** Last Express error handler: body-parser failures, thrown errors, anything else, as the envelope. */
export function errorHandler(logger: Logger) {
  return (error: unknown, req: Request, res: Response, _next: NextFunction): void => {
    const described = describeError(error);
    // The route template, not the path: paths can carry credentials (`/files/<signed token>`).
    if (isWriteAfterTimeout(error)) {
      logger.debug({ route: res.locals.route }, 'answer not written: the request had timed out');
      return;
    }
    if (described.unexpected) logger.error({ err: error, method: req.method, route: res.locals.route ?? req.route?.path ?? 'unmatched' }, 'unexpected error');
    writeError(res, described);
  };
}
