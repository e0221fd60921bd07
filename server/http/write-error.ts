import type { NextFunction, Request, Response } from 'express';
import { describeError, type DescribedError } from '../errors.js';
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

/** Last Express error handler: body-parser failures, thrown errors, anything else, as the envelope. */
export function errorHandler(logger: Logger) {
  return (error: unknown, req: Request, res: Response, _next: NextFunction): void => {
    const described = describeError(error);
    // The route template, not the path: paths can carry credentials (`/files/<signed token>`).
    if (described.unexpected) logger.error({ err: error, method: req.method, route: res.locals.route ?? req.route?.path ?? 'unmatched' }, 'unexpected error');
    writeError(res, described);
  };
}
