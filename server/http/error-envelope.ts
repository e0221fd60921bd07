import { TRPCError } from '@trpc/server';
import type { TRPC_ERROR_CODE_KEY } from '@trpc/server/unstable-core-do-not-import';
import { ZodError } from 'zod';
import type { ErrorBody, ErrorCode } from '../../shared/error-codes.js';
import { AppError } from '../errors.js';
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
  if (appError.code === 'RATE_LIMITED' && typeof appError.details.retryAfter === 'number') {
    body.error.retryAfter = appError.details.retryAfter;
  }
  return {
    status: appError.status,
    body,
    headers: appError.headers,
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
      `The database is unreachable or not ready. Retry in ${DATABASE_RETRY_AFTER_SECONDS} seconds.`,
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

/** Node's and pg's codes for a connection that could not be made or was lost. */
const CONNECTION_ERROR_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * SQLSTATEs meaning "not now" rather than "wrong": connection exceptions (class 08), shutting
 * down or starting up (57P01–57P03), too many connections (53300).
 */
function isUnavailableSqlState(code: string): boolean {
  return code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03' || code === '53300';
}

const UNAVAILABLE_MESSAGES = [/Connection terminated/i, /Timeout acquiring a connection/i, /connection error and is not queryable/i, /the database system is (starting up|shutting down)/i];

/**
 * A failure of the database connection itself (refused, lost, the pool waiting in vain, the
 * server starting or stopping), anywhere in the cause chain (MikroORM keeps the driver's error
 * as `previous`): a temporary outage (503), not a fault of the request or of our code.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current && typeof current === 'object'; depth += 1) {
    const { code, message, name } = current as { code?: unknown; message?: unknown; name?: unknown };
    if (typeof code === 'string' && (CONNECTION_ERROR_CODES.has(code) || (/^[0-9A-Z]{5}$/.test(code) && isUnavailableSqlState(code)))) return true;
    if (name === 'KnexTimeoutError' || name === 'ConnectionException') return true;
    if (typeof message === 'string' && UNAVAILABLE_MESSAGES.some((pattern) => pattern.test(message))) return true;
    current = (current as { previous?: unknown; cause?: unknown }).previous ?? (current as { cause?: unknown }).cause;
  }
  return false;
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
