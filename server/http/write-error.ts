import type { NextFunction, Request, Response } from 'express';
import { describeError, type DescribedError } from './error-envelope.js';
import { TRPC_ERROR_CODES_BY_KEY } from '@trpc/server/rpc';
import { trpcCodeFor } from '../trpc/trpc.js';
import { isTrpcBatch } from './authenticate.js';
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
 * An error raised before tRPC runs (authentication, rate limits, body parsing) on a `/trpc` path,
 * in tRPC's own error shape (a JSON-RPC code, `data` with appCode, httpStatus and details), as
 * errors inside procedures come: a `@trpc/client` reads both the same way, and can tell an
 * expired access token (to refresh it). A batch gets one such error per call, as tRPC answers.
 */
function forTrpcClients(req: Request, described: DescribedError): DescribedError {
  const { error } = described.body;
  const code = trpcCodeFor(described.status);
  const withData = {
    error: {
      message: error.message,
      code: TRPC_ERROR_CODES_BY_KEY[code],
      data: {
        code,
        httpStatus: described.status,
        appCode: error.code,
        details: error.details,
        requestId: error.requestId,
        ...(error.retryAfter !== undefined ? { retryAfter: error.retryAfter } : {}),
      },
    },
  };
  if (!isTrpcBatch(req)) return { ...described, body: withData as unknown as DescribedError['body'] };
  const calls = Math.max(1, req.path.split(',').length);
  return { ...described, body: Array.from({ length: calls }, () => withData) as unknown as DescribedError['body'] };
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
    writeError(res, req.originalUrl.startsWith('/trpc/') ? forTrpcClients(req, described) : described);
  };
}
