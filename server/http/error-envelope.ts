import { DriverException } from '@mikro-orm/core';
import { TRPCError } from '@trpc/server';
import type { TRPC_ERROR_CODE_KEY } from '@trpc/server/unstable-core-do-not-import';
import { ZodError } from 'zod';
import type { ErrorBody, ErrorCode } from '../../shared/error-codes.js';
import { AppError } from '../errors.js';
import { requestContext } from '../lib/request-context.js';
import { errorFromZod, type InputSource } from '../validation-errors.js';

export interface DescribedError {
  status: number;
  body: ErrorBody;
  headers: Record<string, string>;
  /** True when the error is ours to log as a server fault. */
  unexpected: boolean;
}

export interface DescribeErrorContext {
  rawInput?: unknown;
  source?: InputSource;
  /** Input keys that came from the URL path: a bad one means the resource does not exist. */
  pathParams?: readonly string[];
}

/**
 * Turns anything thrown into the envelope and status of the spec: an AppError as it is, tRPC's
 * own errors (input validation, parse errors) and body-parser's client errors as their codes,
 * anything else as INTERNAL_ERROR. Never exposes internals.
 */
export function describeError(error: unknown, context: DescribeErrorContext = {}): DescribedError {
  const appError = toAppError(error, context);
  const body: ErrorBody = { error: { code: appError.code, message: appError.message, details: appError.details } };
  if ((appError.code === 'RATE_LIMITED' || appError.code === 'TOO_MANY_SIGN_IN_ATTEMPTS') && typeof appError.details.retryAfter === 'number') {
    body.error.retryAfter = appError.details.retryAfter;
  }
  // The id support asks for, as in the X-Request-Id header and every log line of the request.
  const requestId = requestContext.getStore()?.requestId;
  if (requestId) body.error.requestId = requestId;
  const headers = { ...appError.headers };
  // RFC 9110: a 401 names its scheme; a 503 says when to come back.
  if (appError.status === 401) headers['WWW-Authenticate'] ??= 'Bearer realm="api"';
  if (appError.status === 503) headers['Retry-After'] ??= String(DATABASE_RETRY_AFTER_SECONDS);
  return {
    status: appError.status,
    body,
    headers,
    // A database outage is not the request's fault, but operators must hear of it.
    unexpected: appError.code === 'INTERNAL_ERROR' || isDatabaseUnavailable(error),
  };
}

const GENERIC_BY_TRPC_CODE: Partial<Record<TRPC_ERROR_CODE_KEY, [ErrorCode, string]>> = {
  PARSE_ERROR: ['INVALID_REQUEST', 'The request body is not valid JSON.'],
  BAD_REQUEST: ['INVALID_REQUEST', 'The request is invalid.'],
  UNAUTHORIZED: ['INVALID_API_KEY', 'A valid API key is required.'],
  FORBIDDEN: ['INSUFFICIENT_PERMISSIONS', 'The API key lacks the permission this operation requires.'],
  NOT_FOUND: ['RESOURCE_NOT_FOUND', 'The resource was not found.'],
  METHOD_NOT_SUPPORTED: ['METHOD_NOT_ALLOWED', 'Method not allowed.'],
  PAYLOAD_TOO_LARGE: ['PAYLOAD_TOO_LARGE', 'The request body is too large.'],
  UNSUPPORTED_MEDIA_TYPE: ['UNSUPPORTED_MEDIA_TYPE', 'The request body must be JSON, sent with "Content-Type: application/json".'],
  TOO_MANY_REQUESTS: ['RATE_LIMITED', 'Too many requests.'],
};

function toAppError(error: unknown, context: DescribeErrorContext): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof TRPCError) {
    // tRPC wraps what a procedure throws; the AppError inside is the answer.
    if (error.cause instanceof AppError) return error.cause;
    if (error.code === 'BAD_REQUEST' && error.cause instanceof ZodError) {
      const pathParams = context.pathParams ?? [];
      if (error.cause.issues.some((issue) => pathParams.includes(String(issue.path[0])))) {
        return new AppError('RESOURCE_NOT_FOUND', 'The resource was not found.');
      }
      return errorFromZod(error.cause, context.rawInput, context.source ?? 'body');
    }
    const generic = GENERIC_BY_TRPC_CODE[error.code];
    if (generic) return new AppError(generic[0], generic[1]);
  }
  if (error instanceof URIError) return new AppError('RESOURCE_NOT_FOUND', 'The path is not validly percent-encoded.');
  if (isDatabaseUnavailable(error)) {
    return new AppError(
      'SERVICE_UNAVAILABLE',
      `The service is briefly unavailable. Retry in ${DATABASE_RETRY_AFTER_SECONDS} seconds.`,
      { retryAfter: DATABASE_RETRY_AFTER_SECONDS },
      { 'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS) },
    );
  }
  if (isClientHttpError(error)) {
    if (error.type === 'entity.too.large') {
      return new AppError('PAYLOAD_TOO_LARGE', `The request body exceeds the limit of ${String(error.limit)} bytes.`, {
        limitBytes: error.limit,
      });
    }
    if (error.type === 'entity.parse.failed') return new AppError('INVALID_REQUEST', 'The request body is not valid JSON.');
    if (error.type === INVALID_UTF8) return new AppError('INVALID_REQUEST', 'The request body is not valid UTF-8.');
    if (error.type === 'charset.unsupported' || error.type === 'encoding.unsupported') {
      return new AppError('UNSUPPORTED_MEDIA_TYPE', `${error.message}: send UTF-8 JSON, uncompressed or with gzip, deflate or br.`);
    }
    return new AppError('INVALID_REQUEST', `The request body could not be read: ${error.message}.`);
  }
  return new AppError('INTERNAL_ERROR', 'An unexpected error occurred. Please retry; if it persists, contact support.');
}

/** How long a client should wait before retrying when the database is away. */
const DATABASE_RETRY_AFTER_SECONDS = 5;

/** pg's and knex's codes for a connection that could not be made or was lost. */
const CONNECTION_ERROR_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * SQLSTATEs meaning "not now" rather than "wrong": the connection failed or was lost (08000,
 * 08001, 08003, 08004, 08006; not 08P01, a protocol violation, which is a bug), the server is
 * shutting down or starting up (57P01–57P03), too many connections (53300).
 */
const UNAVAILABLE_SQL_STATES = new Set(['08000', '08001', '08003', '08004', '08006', '57P01', '57P02', '57P03', '53300']);

/**
 * What an outage throws without a code. "Transaction query already complete" is knex's answer to
 * a statement in a transaction whose BEGIN failed on a connection the server was terminating (a
 * restart): the real error goes elsewhere. A bug could say the same (a query after commit), which
 * is why a database outage is still logged as an error: operators see either.
 */
const UNAVAILABLE_MESSAGES = [
  /Connection terminated/i,
  /connection error and is not queryable/i,
  /the database system is (starting up|shutting down)/i,
  /Transaction query already complete/i,
];

function isUnavailableFailure(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const { code, message, name } = error as { code?: unknown; message?: unknown; name?: unknown };
  if (name === 'KnexTimeoutError') return true;
  if (typeof code === 'string' && (CONNECTION_ERROR_CODES.has(code) || UNAVAILABLE_SQL_STATES.has(code))) return true;
  return typeof message === 'string' && UNAVAILABLE_MESSAGES.some((pattern) => pattern.test(message));
}

/**
 * A failure of the database connection itself (refused, lost, no pool connection in time, the
 * server starting or stopping): a temporary outage (503), not a fault of the request or of our
 * code. Only what the database layer throws counts: the error itself (pg and knex throw them
 * as they are), or the driver error MikroORM wraps (`previous`); a tRPC error is looked into. A
 * failed call to another service (an LLM, speech-to-text) is never taken for a database outage.
 */
function isDatabaseUnavailable(error: unknown): boolean {
  const thrown = error instanceof TRPCError ? error.cause : error;
  if (isUnavailableFailure(thrown)) return !(thrown instanceof TypeError);
  const previous = thrown instanceof DriverException ? (thrown as DriverException & { previous?: unknown }).previous : undefined;
  return thrown instanceof DriverException && (isUnavailableFailure(thrown) || isUnavailableFailure(previous));
}

/** `type` of the error a JSON body parser's `verify` throws for bytes that are not UTF-8. */
export const INVALID_UTF8 = 'encoding.invalid_utf8';

/** http-errors as thrown by body-parser and friends: `expose` marks a message safe for clients. */
interface ClientHttpError {
  type?: string;
  limit?: number;
  message: string;
}

function isClientHttpError(error: unknown): error is ClientHttpError {
  if (typeof error !== 'object' || error === null) return false;
  const { expose, status } = error as { expose?: unknown; status?: unknown };
  return expose === true && typeof status === 'number' && status >= 400 && status < 500;
}
