import type { AnyRouter } from '@trpc/server';
import { forEachOpenApiProcedure, generateOpenApiDocument } from 'trpc-to-openapi';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { ERROR_CODES, type ErrorCode } from '../../shared/error-codes.js';
import { ZErrorEnvelope } from '../../shared/schemas/common.js';
import { describeRequirement, type Permission, type PermissionRequirement } from '../../shared/permissions.js';
import { isStoredOutcome } from '../platform/idempotency-store.js';
import type { AppMeta } from '../trpc/trpc.js';

type JsonObject = Record<string, any>;

const HTTP_METHODS = ['get', 'post', 'patch', 'put', 'delete'] as const;

const RATE_LIMIT_HEADERS = {
  'X-RateLimit-Limit': { $ref: '#/components/headers/X-RateLimit-Limit' },
  'X-RateLimit-Remaining': { $ref: '#/components/headers/X-RateLimit-Remaining' },
  'X-RateLimit-Reset': { $ref: '#/components/headers/X-RateLimit-Reset' },
};

const IDEMPOTENT_REPLAYED = { 'Idempotent-Replayed': { $ref: '#/components/headers/Idempotent-Replayed' } };

/** What a participant API operation names as its permission: it takes the invite token instead of a key. */
export const PARTICIPANT_CREDENTIAL = 'invite token';

interface OperationFacts {
  permission?: PermissionRequirement | typeof PARTICIPANT_CREDENTIAL;
  /** Also takes the participant's invite token (session lifecycle actions). */
  participant?: boolean;
  successStatus: number;
  errors: ErrorCode[];
}

function errorResponse(codes: ErrorCode[], extraHeaders: JsonObject = {}): JsonObject {
  return {
    description: codes.map((code) => `\`${code}\`: ${ERROR_CODES[code].description}`).join('\n\n'),
    headers: { ...RATE_LIMIT_HEADERS, ...extraHeaders },
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
  };
}

/**
 * trpc-to-openapi documents every success as 200 and uses its own error schema. Our handler
 * answers 201/204 and the spec's envelope, so each operation's responses are rewritten from the
 * procedure meta: the real success status, and one response per error status it can return.
 */
function rewriteResponses(operation: JsonObject, facts: OperationFacts, method: string, path: string): void {
  const success = operation.responses?.['200'] ?? operation.responses?.[String(facts.successStatus)];
  const responses: JsonObject = {};
  // Every POST takes an Idempotency-Key (REST only); its stored outcomes come back marked as replays.
  const idempotent = method === 'post';
  const replayable = idempotent ? IDEMPOTENT_REPLAYED : {};
  if (facts.successStatus === 204) {
    responses['204'] = { description: 'No content', headers: { ...RATE_LIMIT_HEADERS, ...replayable } };
  } else {
    responses[String(facts.successStatus)] = { ...success, headers: { ...(success?.headers ?? {}), ...RATE_LIMIT_HEADERS, ...replayable } };
  }
  if (idempotent) operation.parameters = [...(operation.parameters ?? []), { $ref: '#/components/parameters/Idempotency-Key' }];

  const hasBody = method !== 'get' && method !== 'delete';
  const hasPathParams = path.includes('{');
  const byInviteToken = facts.permission === PARTICIPANT_CREDENTIAL;
  const codes: ErrorCode[] = byInviteToken ? ['INVALID_REQUEST', 'INVALID_INVITE_TOKEN'] : ['INVALID_REQUEST', 'INVALID_API_KEY', 'INSUFFICIENT_PERMISSIONS'];
  if (hasPathParams || facts.errors.length > 0 || hasBody) codes.push('RESOURCE_NOT_FOUND');
  if (hasBody) codes.push('VALIDATION_ERROR', 'UNSUPPORTED_MEDIA_TYPE');
  codes.push(...facts.errors);
  if (idempotent) codes.push('IDEMPOTENCY_KEY_IN_USE', 'IDEMPOTENCY_KEY_REUSED');
  codes.push('RATE_LIMITED', 'INTERNAL_ERROR', 'SERVICE_UNAVAILABLE');

  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of new Set(codes)) {
    const status = ERROR_CODES[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  for (const [status, statusCodes] of [...byStatus].sort(([a], [b]) => a - b)) {
    const extraHeaders: JsonObject = {};
    if (status === 429) extraHeaders['Retry-After'] = { description: 'Seconds until the rate-limit window resets.', schema: { type: 'integer' } };
    if (status === 503) extraHeaders['Retry-After'] = { description: 'Seconds to wait before retrying.', schema: { type: 'integer' } };
    if (status === 409 && idempotent) {
      extraHeaders['Retry-After'] = { description: 'On `IDEMPOTENCY_KEY_IN_USE`: seconds to wait before retrying.', schema: { type: 'integer' } };
    }
    if (idempotent && isStoredOutcome(status)) Object.assign(extraHeaders, IDEMPOTENT_REPLAYED);
    responses[String(status)] = errorResponse(statusCodes, extraHeaders);
  }
  operation.responses = responses;
  if (byInviteToken) {
    operation['x-permission'] = facts.permission;
    operation.description = [operation.description, 'Authorized by the participant\'s invite token (`Authorization: Bearer inv_…`), not an API key.'].filter(Boolean).join('\n\n');
  } else if (facts.permission) {
    operation['x-permission'] = facts.permission;
    const required = typeof facts.permission === 'string' ? `the \`${facts.permission}\` permission` : `the \`${describeRequirement(facts.permission)}\` permissions`;
    operation.description = [operation.description, `Requires ${required}.`].filter(Boolean).join('\n\n');
  }
}

function successStatusOf(operation: JsonObject): number {
  return Number(Object.keys(operation.responses ?? {}).find((status) => status.startsWith('2')) ?? 200);
}

/** An operation served by a plain Express route, as its OpenAPI description states it. */
export interface PlainOperation {
  method: string;
  path: string;
  /** A permission, or `invite token` for the participant API. */
  permission: string;
  successStatus: number;
  summary: string;
}

/**
 * Plain routes are described once, in OpenAPI form; the 405 `Allow` header, the README table
 * and the permission tests read them from there.
 */
export function listPlainOperations(paths: ZodOpenApiPathsObject): PlainOperation[] {
  const operations: PlainOperation[] = [];
  for (const [path, item] of Object.entries(paths) as [string, JsonObject][]) {
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (!operation) continue;
      operations.push({
        method: method.toUpperCase(),
        path,
        permission: operation['x-permission'],
        successStatus: successStatusOf(operation),
        summary: operation.summary ?? '',
      });
    }
  }
  return operations;
}

export interface OpenApiDocumentOptions {
  router: AnyRouter;
  publicUrl: string;
  version: string;
  /** Operations served by plain Express routes (multipart uploads and the like). */
  extraPaths?: ZodOpenApiPathsObject;
}

export function buildOpenApiDocument(options: OpenApiDocumentOptions): JsonObject {
  const factsByOperationId = new Map<string, OperationFacts>();
  forEachOpenApiProcedure(options.router._def.procedures, ({ path, meta }) => {
    const appMeta = meta as AppMeta;
    factsByOperationId.set(appMeta.openapi?.operationId ?? path.replace(/\./g, '-'), {
      permission: appMeta.permission,
      participant: appMeta.participant === true,
      successStatus: appMeta.successStatus ?? 200,
      errors: appMeta.errors ?? [],
    });
  });

  const document = generateOpenApiDocument(options.router, {
    title: 'Interview Service API',
    version: options.version,
    description:
      'AI-led interviews: scripts, campaigns, invites, sessions, transcripts and insights. Every request needs `Authorization: Bearer <API_KEY>`. Errors use one envelope: `{"error": {"code", "message", "details"}}`.',
    baseUrl: options.publicUrl,
    securitySchemes: {
      ApiKey: { type: 'http', scheme: 'bearer', description: 'An API key, `isk_live_…`, created with the admin CLI.' },
      inviteToken: { type: 'http', scheme: 'bearer', description: "A participant's invite token, `inv_…` (the invite's `token`): safe in the browser, it acts only on its own interview." },
    },
    paths: options.extraPaths,
    defs: { Error: ZErrorEnvelope },
  }) as JsonObject;

  for (const [path, item] of Object.entries(document.paths ?? {}) as [string, JsonObject][]) {
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const facts: OperationFacts = factsByOperationId.get(operation.operationId) ?? {
        permission: operation['x-permission'],
        successStatus: successStatusOf(operation),
        errors: (operation['x-error-codes'] as ErrorCode[] | undefined) ?? [],
      };
      delete operation['x-error-codes'];
      // Plain routes state their own; procedures take a key, and the lifecycle ones the invite token too.
      operation.security = factsByOperationId.has(operation.operationId)
        ? [{ ApiKey: [] }, ...(facts.participant ? [{ inviteToken: [] }] : [])]
        : (operation.security ?? [{ ApiKey: [] }]);
      rewriteResponses(operation, facts, method, path);
    }
  }

  const schemas: JsonObject = document.components?.schemas ?? {};
  for (const name of Object.keys(schemas)) if (name.startsWith('error.')) delete schemas[name];
  document.components = {
    ...document.components,
    schemas,
    parameters: {
      ...document.components?.parameters,
      'Idempotency-Key': {
        name: 'Idempotency-Key',
        in: 'header',
        required: false,
        description:
          'Makes this POST safe to retry (REST `/v1` and `/api` only, not `/trpc`). Within 24 hours and per organization, the same key with the same request (method, path and body; for an upload the file and its fields) replays the first response with `Idempotent-Replayed: true`; with a different request it is 422 `IDEMPOTENCY_KEY_REUSED`; while the first is still running it is 409 `IDEMPOTENCY_KEY_IN_USE`. Requests refused before they run (400, 401, 403, 413, 422, 429) and 5xx outcomes are not kept, so they can be retried with the same key.',
        schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[!-~]+$' },
      },
    },
    headers: {
      'Idempotent-Replayed': {
        description: '`true` when this response is the stored response of an earlier request with the same `Idempotency-Key`.',
        schema: { type: 'string', enum: ['true'] },
      },
      'X-RateLimit-Limit': { description: "Requests allowed per minute for this API key's plan.", schema: { type: 'integer' } },
      'X-RateLimit-Remaining': { description: 'Requests left in the current one-minute window.', schema: { type: 'integer' } },
      'X-RateLimit-Reset': { description: 'Unix time (seconds) at which the current window ends.', schema: { type: 'integer' } },
    },
  };
  return document;
}
