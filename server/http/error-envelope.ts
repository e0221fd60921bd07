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
    unexpected: appError.code === 'INTERNAL_ERROR',
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
  if (isClientHttpError(error)) {
    if (error.type === 'entity.too.large') {
      return new AppError('PAYLOAD_TOO_LARGE', `The request body exceeds the limit of ${String(error.limit)} bytes.`, {
        limitBytes: error.limit,
      });
    }
    if (error.type === 'entity.parse.failed') return new AppError('INVALID_REQUEST', 'The request body is not valid JSON.');
    return new AppError('INVALID_REQUEST', `The request body could not be read: ${error.message}.`);
  }
  return new AppError('INTERNAL_ERROR', 'An unexpected error occurred. Please retry; if it persists, contact support.');
}

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
