import type { AnyRouter } from '@trpc/server';
import { forEachOpenApiProcedure, generateOpenApiDocument } from 'trpc-to-openapi';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { ERROR_CODES, type ErrorCode } from '../../shared/error-codes.js';
import { ZErrorEnvelope } from '../../shared/schemas/common.js';
import { describeRequirement, type PermissionRequirement } from '../../shared/permissions.js';
import { isStoredOutcome } from '../platform/idempotency-store.js';
import { type AppMeta, INVITE_TOKEN } from '../trpc/trpc.js';
import { declareLivemode, dropIdenticalOutputCopies, dropPatternsStatedByFormat, shareRepeatedParameters } from './openapi-compaction.js';
import { WEBHOOK_PAYLOAD_DEFS, webhooksSection } from './openapi-webhooks.js';
import responseExamples from '../docs/response-examples.json' with { type: 'json' };

type JsonObject = Record<string, any>;

export const HTTP_METHODS = ['get', 'post', 'patch', 'put', 'delete'] as const;

/**
 * On every answer to a counted request, success or error. Stated once, on the `default` error
 * responses (where 429 is) and in the document's description, not on each of 90 successes.
 */
const RATE_LIMIT_HEADERS = {
  'X-RateLimit-Limit': { $ref: '#/components/headers/X-RateLimit-Limit' },
  'X-RateLimit-Remaining': { $ref: '#/components/headers/X-RateLimit-Remaining' },
  'X-RateLimit-Reset': { $ref: '#/components/headers/X-RateLimit-Reset' },
};

const IDEMPOTENT_REPLAYED = { 'Idempotent-Replayed': { $ref: '#/components/headers/Idempotent-Replayed' } };

interface OperationFacts {
  permission?: PermissionRequirement | typeof INVITE_TOKEN;
  /** Also takes the participant's invite token (session lifecycle actions). */
  participant?: boolean;
  successStatus: number;
  errors: ErrorCode[];
  /** The created record's path template (201 answers' `Location`). */
  location?: string;
}

const REQUEST_ID = { 'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' } };

/** An error response: the envelope, its `code` narrowed to the codes this status carries here. */
function errorResponse(codes: ErrorCode[], extraHeaders: JsonObject = {}): JsonObject {
  const statuses = new Set(codes.map((code) => ERROR_CODES[code].status));
  return {
    // One status: its codes. Several (the `default` response): each code with its status.
    description: codes.map((code) => `${statuses.size > 1 ? `${ERROR_CODES[code].status} ` : ''}\`${code}\`: ${ERROR_CODES[code].description}`).join('\n\n'),
    headers: { ...REQUEST_ID, ...extraHeaders },
    content: {
      'application/json': {
        schema: {
          allOf: [
            { $ref: '#/components/schemas/Error' },
            { type: 'object', properties: { error: { type: 'object', properties: { code: { type: 'string', enum: codes } } } } },
          ],
        },
      },
    },
  };
}

/**
 * trpc-to-openapi documents every success as 200 and uses its own error schema. Our handler
 * answers 201/204 and the spec's envelope, so each operation's responses are rewritten from the
 * procedure meta: the real success status, and one response per error status it can return.
 */
function rewriteResponses(operation: JsonObject, facts: OperationFacts, method: string, path: string, readable: boolean): void {
  const success = operation.responses?.['200'] ?? operation.responses?.[String(facts.successStatus)];
  const responses: JsonObject = {};
  // Every POST takes an Idempotency-Key (REST only); its stored outcomes come back marked as replays.
  const idempotent = method === 'post';
  const replayable = idempotent ? IDEMPOTENT_REPLAYED : {};
  if (facts.successStatus === 204) {
    responses['204'] = { description: 'No content', headers: { ...REQUEST_ID, ...replayable } };
  } else {
    // A create with a Location also answers the created record's ETag, as its GET does.
    const location = facts.location
      ? {
          Location: { description: `Where the created record is read: \`${facts.location}\`.`, schema: { type: 'string' } },
          ETag: { $ref: '#/components/headers/ETag' },
        }
      : {};
    responses[String(facts.successStatus)] = {
      ...success,
      headers: { ...(success?.headers ?? {}), ...location, ...REQUEST_ID, ...replayable },
    };
  }
  operation.parameters = [...(operation.parameters ?? []), { $ref: '#/components/parameters/X-Request-Id' }];
  // One record (the path ends in its id): GET and PATCH answer its ETag; PATCH and DELETE take If-Match.
  const record = path.endsWith('}') && readable;
  const versioned = record && (method === 'patch' || method === 'delete');
  if (versioned) operation.parameters.push({ $ref: '#/components/parameters/If-Match' });
  const success200 = responses['200'];
  if (record && success200 && (method === 'get' || method === 'patch'))
    success200.headers = { ETag: { $ref: '#/components/headers/ETag' }, ...success200.headers };
  if (idempotent) operation.parameters.push({ $ref: '#/components/parameters/Idempotency-Key' });

  const hasBody = method !== 'get' && method !== 'delete';
  const hasPathParams = path.includes('{');
  const byInviteToken = facts.permission === INVITE_TOKEN;
  const codes: ErrorCode[] = byInviteToken ? ['INVALID_REQUEST', 'INVALID_INVITE_TOKEN'] : ['INVALID_REQUEST', 'INVALID_API_KEY', 'INSUFFICIENT_PERMISSIONS'];
  if (hasPathParams || facts.errors.length > 0 || hasBody) codes.push('RESOURCE_NOT_FOUND');
  if (hasBody) codes.push('VALIDATION_ERROR', 'UNSUPPORTED_MEDIA_TYPE', 'PAYLOAD_TOO_LARGE');
  codes.push(...facts.errors);
  if (versioned) codes.push('PRECONDITION_FAILED');
  if (idempotent) codes.push('IDEMPOTENCY_KEY_IN_USE', 'IDEMPOTENCY_KEY_REUSED');
  codes.push('RATE_LIMITED', 'INTERNAL_ERROR', 'SERVICE_UNAVAILABLE');

  // The errors any operation of this kind can answer (its credential, a body, a POST's
  // Idempotency-Key, load) are one shared `default` response, as Stripe's document has them; a
  // status whose codes are this operation's own (a 404 for the record, a 409 for its state) is
  // listed by itself, with every code it can carry.
  const common = new Set<ErrorCode>([
    'INVALID_REQUEST',
    ...(byInviteToken ? (['INVALID_INVITE_TOKEN'] as const) : (['INVALID_API_KEY', 'INSUFFICIENT_PERMISSIONS'] as const)),
    ...(hasBody ? (['VALIDATION_ERROR', 'UNSUPPORTED_MEDIA_TYPE', 'PAYLOAD_TOO_LARGE'] as const) : []),
    ...(idempotent ? (['IDEMPOTENCY_KEY_IN_USE', 'IDEMPOTENCY_KEY_REUSED'] as const) : []),
    'RATE_LIMITED',
    'INTERNAL_ERROR',
    'SERVICE_UNAVAILABLE',
  ]);
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of new Set(codes)) {
    const status = ERROR_CODES[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  for (const [status, statusCodes] of [...byStatus].sort(([a], [b]) => a - b)) {
    if (statusCodes.every((code) => common.has(code))) continue;
    const extraHeaders: JsonObject = {};
    if (status === 409 && idempotent) {
      extraHeaders['Retry-After'] = { description: 'On `IDEMPOTENCY_KEY_IN_USE`: seconds to wait before retrying.', schema: { type: 'integer' } };
    }
    if (idempotent && isStoredOutcome(status)) Object.assign(extraHeaders, IDEMPOTENT_REPLAYED);
    responses[String(status)] = errorResponse(statusCodes, extraHeaders);
  }
  // Always every common code, so that one kind of operation has one `default` (a status listed
  // by itself still wins over it).
  const defaultCodes = [...common].sort((a, b) => ERROR_CODES[a].status - ERROR_CODES[b].status);
  responses.default = errorResponse(defaultCodes, {
    ...RATE_LIMIT_HEADERS,
    'Retry-After': {
      description: `On 429 \`RATE_LIMITED\`: seconds until the rate-limit window resets. On 503: seconds to wait before retrying.${
        idempotent ? ' On 409 `IDEMPOTENCY_KEY_IN_USE`: seconds until the first request may have finished.' : ''
      }`,
      schema: { type: 'integer' },
    },
    ...(idempotent ? IDEMPOTENT_REPLAYED : {}),
  });
  operation.responses = responses;
  if (byInviteToken) {
    operation['x-permission'] = facts.permission;
    operation.description = [operation.description, "Authorized by the participant's invite token (`Authorization: Bearer inv_…`), not an API key."]
      .filter(Boolean)
      .join('\n\n');
  } else if (facts.permission) {
    operation['x-permission'] = facts.permission;
    const required =
      typeof facts.permission === 'string' ? `the \`${facts.permission}\` permission` : `the \`${describeRequirement(facts.permission)}\` permissions`;
    operation.description = [operation.description, `Requires ${required}.`].filter(Boolean).join('\n\n');
  }
}

function takesNoFields(requestBody: JsonObject | undefined): boolean {
  const schemas = Object.values((requestBody?.content ?? {}) as JsonObject).map((media) => media.schema as JsonObject | undefined);
  return schemas.length > 0 && schemas.every((schema) => schema?.type === 'object' && Object.keys(schema.properties ?? {}).length === 0 && !schema.$ref);
}

function successStatusOf(operation: JsonObject): number {
  return Number(Object.keys(operation.responses ?? {}).find((status) => status.startsWith('2')) ?? 200);
}

/** A stream operation (server/http/stream-operation.ts), as its OpenAPI description states it. */
export interface StreamOperationSummary {
  method: string;
  path: string;
  /** The permissions required, or `invite token` for the participant API. */
  permission: PermissionRequirement | typeof INVITE_TOKEN;
  successStatus: number;
  summary: string;
}

/** The stream operations as their OpenAPI paths state them: the README table and the permission tests read them. */
export function listStreamOperations(paths: ZodOpenApiPathsObject): StreamOperationSummary[] {
  const operations: StreamOperationSummary[] = [];
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
  version: string;
  /** The stream operations' paths (multipart uploads, file downloads). */
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
      ...(appMeta.location ? { location: appMeta.location } : {}),
    });
  });

  const document = generateOpenApiDocument(options.router, {
    title: 'Interview Service API',
    version: options.version,
    description:
      'AI-led interviews: scripts, campaigns, invites, sessions, transcripts and insights. Every request needs `Authorization: Bearer <API_KEY>`. Errors use one envelope: `{"error": {"code", "message", "details"}}`; each operation lists the statuses its own codes come with, and its `default` response the errors every operation of its kind can answer (credentials, bodies, idempotency, rate limits, outages). Every answer carries `X-Request-Id`, and every counted request `X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset` (see `components.headers`).',
    // Relative: "Try it out" in /docs works from any host name, and generated clients bake in no host.
    baseUrl: '/',
    securitySchemes: {
      ApiKey: { type: 'http', scheme: 'bearer', description: 'An API key, `isk_live_…`, created with the admin CLI.' },
      inviteToken: {
        type: 'http',
        scheme: 'bearer',
        description: "A participant's invite token, `inv_…` (the invite's `token`): safe in the browser, it acts only on its own interview.",
      },
    },
    paths: options.extraPaths,
    defs: { Error: ZErrorEnvelope, ...WEBHOOK_PAYLOAD_DEFS },
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
      // A body of no fields is no body to document (leaving the interview): any field is still 422.
      if (takesNoFields(operation.requestBody)) delete operation.requestBody;
      // Stream operations state their own; procedures take a key (the lifecycle ones the invite
      // token too), the participant API's the invite token alone.
      operation.security = !factsByOperationId.has(operation.operationId)
        ? (operation.security ?? [{ ApiKey: [] }])
        : facts.permission === INVITE_TOKEN
          ? [{ inviteToken: [] }]
          : [{ ApiKey: [] }, ...(facts.participant ? [{ inviteToken: [] }] : [])];
      rewriteResponses(operation, facts, method, path, Boolean(item.get));
    }
  }

  const schemas: JsonObject = document.components?.schemas ?? {};
  for (const name of Object.keys(schemas)) if (name.startsWith('error.')) delete schemas[name];
  document.components = {
    ...document.components,
    schemas,
    parameters: {
      ...document.components?.parameters,
      'If-Match': {
        name: 'If-Match',
        in: 'header',
        required: false,
        description:
          "The record's `ETag` as you read it: the change applies only if the record is still that version, else 412 `PRECONDITION_FAILED` (with the current `ETag`). `*` matches any version.",
        schema: { type: 'string' },
      },
      'X-Request-Id': {
        name: 'X-Request-Id',
        in: 'header',
        required: false,
        description:
          'Your id for this request (1–128 letters, digits, `-`, `_`, `.`, `:`), echoed in the `X-Request-Id` response header, the error body and our logs; one is made when absent.',
        schema: { type: 'string', maxLength: 128, pattern: '^[A-Za-z0-9._:-]+$' },
      },
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
      ETag: {
        description: "The record's version (a strong entity tag of its JSON): send it back in `If-Match` to change only that version.",
        schema: { type: 'string' },
      },
      'X-Request-Id': {
        description: "The request's id (yours, or `req_…`): in the error body as `requestId` and on our log lines. Quote it to support.",
        schema: { type: 'string' },
      },
      'Idempotent-Replayed': {
        description: '`true` when this response is the stored response of an earlier request with the same `Idempotency-Key`.',
        schema: { type: 'string', enum: ['true'] },
      },
      'X-RateLimit-Limit': { description: "Requests allowed per minute for this API key's plan.", schema: { type: 'integer' } },
      'X-RateLimit-Remaining': { description: 'Requests left in the current one-minute window.', schema: { type: 'integer' } },
      'X-RateLimit-Reset': { description: 'Unix time (seconds) at which the current window ends.', schema: { type: 'integer' } },
    },
  };
  document.webhooks = webhooksSection();
  document.tags = declaredTags(document);
  addResponseExamples(document);
  dropSafeIntegerBounds(document);
  openResponseSchemas(document);
  shareErrorResponses(document);
  dropPatternsStatedByFormat(document);
  shareRepeatedParameters(document);
  dropIdenticalOutputCopies(document);
  declareLivemode(document);
  return document;
}

/** A `default` response by the kind of operation it serves: its credential, whether it takes a body, whether it is a POST. */
function defaultResponseName(codes: string[]): string {
  return [
    'Errors',
    codes.includes('INVALID_INVITE_TOKEN') ? 'InviteToken' : 'ApiKey',
    ...(codes.includes('VALIDATION_ERROR') ? ['Body'] : []),
    ...(codes.includes('IDEMPOTENCY_KEY_IN_USE') ? ['Post'] : []),
  ].join('-');
}

/**
 * Each distinct error response once, in `components.responses`, referenced by every operation
 * that answers it: about 750 error responses are some 40 distinct ones, and written out in full
 * they were two thirds of the document (a generated client compiled each one). Named by what
 * they hold, so a name means the same response from one version to the next: the status, the
 * codes, and the headers beyond those every answer has (`Error404-RESOURCE_NOT_FOUND`, and a
 * POST's `Error404-RESOURCE_NOT_FOUND-with-Idempotent-Replayed`); a `default` by the kind of
 * operation (`Errors-ApiKey-Body-Post`).
 */
function shareErrorResponses(document: JsonObject): void {
  const shared: JsonObject = {};
  const everyAnswers = new Set(Object.keys(REQUEST_ID));
  for (const item of Object.values(document.paths ?? {}) as JsonObject[]) {
    for (const method of HTTP_METHODS) {
      const responses: JsonObject | undefined = item[method]?.responses;
      if (!responses) continue;
      for (const [status, response] of Object.entries(responses)) {
        if (!(/^[45]\d\d$/.test(status) || status === 'default') || '$ref' in response) continue;
        const codes: string[] = response.content?.['application/json']?.schema?.allOf?.[1]?.properties?.error?.properties?.code?.enum ?? [];
        const extraHeaders = Object.keys(response.headers ?? {})
          .filter((name) => !everyAnswers.has(name))
          .sort();
        const name =
          status === 'default'
            ? defaultResponseName(codes)
            : [`Error${status}`, ...codes, ...(extraHeaders.length > 0 ? ['with', ...extraHeaders] : [])].join('-');
        // Two different responses under one name would make a reference mean the wrong one.
        if (shared[name] && JSON.stringify(shared[name]) !== JSON.stringify(response)) {
          throw new Error(`Two different error responses would be named ${name}: name them by what tells them apart.`);
        }
        shared[name] = response;
        responses[status] = { $ref: `#/components/responses/${name}` };
      }
    }
  }
  document.components.responses = Object.fromEntries(Object.entries(shared).sort(([a], [b]) => a.localeCompare(b)));
}

/**
 * Real requests and answers as examples (`server/docs/response-examples.json`, recorded from a live tenant by
 * tests/http/openapi-client.test.ts, which also checks they still match the document's types).
 */
// Imported, not read from disk: the bundled build (dist/) carries it inside.
const RESPONSE_EXAMPLES = responseExamples as Record<string, unknown>;

function addResponseExamples(document: JsonObject): void {
  for (const [key, example] of Object.entries(RESPONSE_EXAMPLES)) {
    const [method, path, status] = key.split(' ');
    const operation = document.paths?.[path!]?.[method!.toLowerCase()];
    const content =
      status === 'request' ? operation?.requestBody?.content?.['application/json'] : operation?.responses?.[status!]?.content?.['application/json'];
    if (content) content.example = example;
  }
}

/**
 * zod states every `.int()` as minimum -(2^53 - 1) and maximum 2^53 - 1: true of JavaScript, no
 * rule of ours, and example generators then show those numbers. Only real bounds are kept.
 */
function dropSafeIntegerBounds(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) dropSafeIntegerBounds(item);
    return;
  }
  if (!node || typeof node !== 'object') return;
  const schema = node as JsonObject;
  if (schema.minimum === Number.MIN_SAFE_INTEGER) delete schema.minimum;
  if (schema.maximum === Number.MAX_SAFE_INTEGER) delete schema.maximum;
  for (const value of Object.values(schema)) dropSafeIntegerBounds(value);
}

const TAG_DESCRIPTIONS: Record<string, string> = {
  Projects: 'Folders for scripts and campaigns.',
  Scripts: 'Interview scripts: questions, settings and the versions they go through, and their media.',
  Campaigns: 'A published script put in front of participants, with its sessions.',
  Invites: 'Personal links to a campaign, one by one or in bulk, with the invitation email.',
  Sessions: 'Interviews as they run and once finished: transcripts, insights, PDF reports and files.',
  'Share links': 'One public link to a campaign for many participants.',
  Quickstart: 'A script, a campaign and a share link in one call.',
  Organization: "The organization's settings and its members (invitations, roles).",
  Billing: 'The plan, usage by period or campaign, credit purchases and invoices (with PDFs).',
  Webhooks: 'Endpoints that receive signed events, their deliveries and redeliveries.',
  Events: 'What happened in the organization, kept 30 days: listed, read, and sent to an endpoint again.',
  'Participant API': "What the interview page calls with the participant's invite token.",
  Exports: 'Every transcript of a campaign or project as JSON, CSV or a ZIP with audio.',
};

/** Tags declared once with a description, in the order operations first use them. */
function declaredTags(document: JsonObject): JsonObject[] {
  const names = new Set<string>();
  for (const item of Object.values(document.paths ?? {}) as JsonObject[]) {
    for (const method of HTTP_METHODS) for (const tag of (item[method]?.tags as string[] | undefined) ?? []) names.add(tag);
  }
  return [...names].map((name) => ({ name, ...(TAG_DESCRIPTIONS[name] ? { description: TAG_DESCRIPTIONS[name] } : {}) }));
}

/**
 * Responses grow: a new field is not a breaking change (README "Versioning"), so no response
 * schema says `additionalProperties: false`. Request schemas keep it (unknown fields are 422).
 * A component used by both sides gets an `…Output` copy for the responses.
 */
function openResponseSchemas(document: JsonObject): void {
  const schemas: JsonObject = document.components.schemas;
  const refsIn = (node: unknown, found: Set<string>): Set<string> => {
    if (node && typeof node === 'object') {
      const ref = (node as JsonObject).$ref;
      if (typeof ref === 'string' && ref.startsWith('#/components/schemas/')) found.add(ref.slice('#/components/schemas/'.length));
      for (const value of Object.values(node)) refsIn(value, found);
    }
    return found;
  };
  const closure = (start: Set<string>): Set<string> => {
    const seen = new Set<string>();
    const pending = [...start];
    while (pending.length > 0) {
      const name = pending.pop()!;
      if (seen.has(name) || !schemas[name]) continue;
      seen.add(name);
      pending.push(...refsIn(schemas[name], new Set()));
    }
    return seen;
  };
  const operations = Object.values(document.paths ?? {}).flatMap((item) =>
    HTTP_METHODS.map((method) => (item as JsonObject)[method]).filter(Boolean),
  ) as JsonObject[];
  const requestSide = closure(
    refsIn(
      operations.map((operation) => [operation.requestBody, operation.parameters]),
      new Set(),
    ),
  );
  // Webhook bodies are what the service sends, like responses: they grow too.
  const webhookOperations = Object.values(document.webhooks ?? {}).map((item) => (item as JsonObject).post) as JsonObject[];
  const responseSide = closure(
    refsIn([...operations.map((operation) => operation.responses), ...webhookOperations.map((operation) => operation.requestBody)], new Set()),
  );
  const shared = new Set([...responseSide].filter((name) => requestSide.has(name)));
  const outputName = (name: string) => (shared.has(name) ? `${name}Output` : name);
  const open = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(open);
    if (!node || typeof node !== 'object') return node;
    const result: JsonObject = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === 'additionalProperties' && value === false) continue;
      if (key === '$ref' && typeof value === 'string' && value.startsWith('#/components/schemas/')) {
        result.$ref = `#/components/schemas/${outputName(value.slice('#/components/schemas/'.length))}`;
      } else {
        result[key] = open(value);
      }
    }
    return result;
  };
  for (const name of responseSide) schemas[outputName(name)] = open(schemas[name]);
  for (const operation of operations) operation.responses = open(operation.responses);
  for (const operation of webhookOperations) operation.requestBody = open(operation.requestBody);
}
