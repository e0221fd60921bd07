import { TRPCError } from '@trpc/server';
import type { TRPC_ERROR_CODE_KEY } from '@trpc/server/unstable-core-do-not-import';
import { ZodError, type core } from 'zod';
import { ERROR_CODES, type ErrorBody, type ErrorCode, type FieldError } from '../shared/error-codes.js';

const TRPC_CODE_BY_STATUS: Record<number, TRPC_ERROR_CODE_KEY> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  402: 'PAYMENT_REQUIRED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_SUPPORTED',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  422: 'UNPROCESSABLE_CONTENT',
  429: 'TOO_MANY_REQUESTS',
  500: 'INTERNAL_SERVER_ERROR',
  503: 'SERVICE_UNAVAILABLE',
};

/**
 * The one error type of the service. Domain code throws it; the REST adapter, the tRPC error
 * formatter and the Express error handler all turn it into the same envelope. It extends
 * TRPCError so `/trpc` clients get the matching HTTP status too.
 */
export class AppError extends TRPCError {
  readonly appCode: ErrorCode;
  readonly status: number;
  readonly details: Record<string, unknown>;
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, message: string, details: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
    const status = ERROR_CODES[code].status;
    super({ code: TRPC_CODE_BY_STATUS[status] ?? 'INTERNAL_SERVER_ERROR', message });
    this.appCode = code;
    this.status = status;
    this.details = details;
    this.headers = headers;
  }
}

const RESOURCE_LABELS = {
  organization: 'Organization',
  project: 'Project',
  script: 'Script',
  campaign: 'Campaign',
  apiKey: 'API key',
  media: 'Media file',
  scriptVersion: 'Script version',
  invite: 'Invite',
  shareLink: 'Share link',
} as const;

/** 404 for a resource that does not exist or belongs to another organization (never 403). */
export function notFound(resource: keyof typeof RESOURCE_LABELS, id: string | number, fieldPath?: string): AppError {
  const message = `${RESOURCE_LABELS[resource]} ${id} was not found.`;
  const details: Record<string, unknown> = { resource, id };
  if (fieldPath) details.fields = [{ path: fieldPath, message: `no ${RESOURCE_LABELS[resource].toLowerCase()} with this id` }];
  return new AppError('RESOURCE_NOT_FOUND', message, details);
}

export function validationError(fields: FieldError[], message = 'One or more fields failed validation.'): AppError {
  return new AppError('VALIDATION_ERROR', message, { fields });
}

/** `questions[2].options` style paths, as clients write them. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else out += out === '' ? String(segment) : `.${String(segment)}`;
  }
  return out;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let current = root;
  for (const segment of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[segment];
  }
  return current;
}

const TYPE_NAMES: Record<string, string> = {
  int: 'an integer',
  number: 'a number',
  string: 'a string',
  boolean: 'a boolean',
  object: 'an object',
  array: 'an array',
  date: 'a date',
};

function sizeMessage(issue: core.$ZodIssueTooBig | core.$ZodIssueTooSmall): string {
  const big = issue.code === 'too_big';
  const bound = String(big ? (issue as core.$ZodIssueTooBig).maximum : (issue as core.$ZodIssueTooSmall).minimum);
  const comparison = issue.inclusive === false ? (big ? 'less than' : 'greater than') : big ? 'at most' : 'at least';
  if (issue.origin === 'string') return `must be ${comparison} ${bound} characters`;
  if (issue.origin === 'array' || issue.origin === 'set') return `must have ${comparison} ${bound} items`;
  return `must be ${comparison} ${bound}`;
}

/** Our own schema messages are kept; zod's generic ones are rephrased as "must …" sentences. */
function issueMessage(issue: core.$ZodIssue, missing: boolean): string {
  if (missing) return 'is required';
  if (!/^(Invalid|Too (big|small))/.test(issue.message)) return issue.message;
  switch (issue.code) {
    case 'invalid_type':
      return `must be ${TYPE_NAMES[issue.expected] ?? issue.expected}`;
    case 'invalid_value':
      return `must be one of: ${issue.values.map((value) => JSON.stringify(value)).join(', ')}`;
    case 'too_big':
    case 'too_small':
      return sizeMessage(issue);
    case 'invalid_key':
      return issue.issues[0] ? issueMessage(issue.issues[0], false) : 'is not a valid key';
    case 'invalid_union': {
      const expected = issue.errors.flat().flatMap((branch) => (branch.code === 'invalid_type' ? [TYPE_NAMES[branch.expected] ?? branch.expected] : []));
      const names = [...new Set(expected)];
      if (names.length === 0) return 'is not valid';
      return `must be ${names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`}`;
    }
    case 'invalid_format':
      return `must be a valid ${issue.format}`;
    default:
      return issue.message;
  }
}

/** Where a procedure's raw input came from: the split between 400 and 422 depends on it. */
export type InputSource = 'body' | 'query';

/**
 * design.md "Errors": 400 INVALID_REQUEST when a required field is missing or a query
 * parameter is bad; 422 VALIDATION_ERROR when present body fields break a rule (an array item
 * lacking a field is a bad item of a present array: 422). Both list
 * every offending field in `details.fields`.
 */
export function errorFromZod(error: ZodError, rawInput: unknown, source: InputSource): AppError {
  const fields: FieldError[] = [];
  let anyMissing = false;
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        fields.push({ path: formatPath([...issue.path, key]), message: source === 'query' ? 'is not a known query parameter' : 'is not a known field' });
      }
      continue;
    }
    // An absent enum (invalid_value) or union (invalid_union) member is as missing as an absent string.
    const missing =
      (issue.code === 'invalid_type' || issue.code === 'invalid_value' || issue.code === 'invalid_union') &&
      valueAt(rawInput, issue.path) === undefined;
    // Inside an array item the field's list is present and one of its items breaks the item's
    // rule: 422 naming the item (`invites[3].email`), like any other bad item.
    anyMissing ||= missing && !issue.path.some((segment) => typeof segment === 'number');
    fields.push({ path: formatPath(issue.path), message: issueMessage(issue, missing) });
  }
  const summary = fields
    .slice(0, 3)
    .map((field) => `${field.path || 'body'} ${field.message}`)
    .join('; ');
  const more = fields.length > 3 ? ` (and ${fields.length - 3} more)` : '';
  if (source === 'query') return new AppError('INVALID_REQUEST', `Invalid query parameters: ${summary}${more}.`, { fields });
  if (anyMissing) return new AppError('INVALID_REQUEST', `Invalid request: ${summary}${more}.`, { fields });
  return new AppError('VALIDATION_ERROR', `Validation failed: ${summary}${more}.`, { fields });
}

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

/** Turns anything thrown into the envelope and status of the spec. Never exposes internals. */
export function describeError(error: unknown, context: DescribeErrorContext = {}): DescribedError {
  const appError = toAppError(error, context);
  const body: ErrorBody = { error: { code: appError.appCode, message: appError.message, details: appError.details } };
  if (appError.appCode === 'RATE_LIMITED' && typeof appError.details.retryAfter === 'number') {
    body.error.retryAfter = appError.details.retryAfter;
  }
  return {
    status: appError.status,
    body,
    headers: appError.headers,
    unexpected: appError.appCode === 'INTERNAL_ERROR',
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
