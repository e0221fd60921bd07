import { type NextFunction, type Request, type Response, Router } from 'express';
import { z } from 'zod';
import type { ZodOpenApiOperationObject, ZodOpenApiPathsObject } from 'zod-openapi';
import type { ErrorCode } from '../../shared/error-codes.js';
import type { PermissionRequirement } from '../../shared/permissions.js';
import type { CustomerAuth, ParticipantAuth } from '../domains/common/caller.js';
import { AppError, validationError } from '../errors.js';
import { findUnstorableText } from '../lib/text-safety.js';
import type { AppServices } from '../services.js';
import { assertPermission } from '../trpc/context.js';
import { INVITE_TOKEN, participantOf } from '../trpc/trpc.js';
import { errorFromZod, type InputSource } from '../validation-errors.js';
import { ifMatchNotHonoured, refuseQueryBesideBody } from './rest-adapter.js';

/**
 * The operations whose bodies are not JSON (multipart uploads, PDF, CSV, ZIP and subtitle
 * downloads): every JSON operation is a tRPC procedure behind the REST adapter. Each is declared
 * once with `defineStreamOperation`; the declaration is the route, its OpenAPI entry, its
 * permission check and its path and query checks, answered in the procedures' error envelope.
 */

/** What a stream operation requires: permissions of a customer's caller, or the participant's invite token. */
type StreamPermission = PermissionRequirement | typeof INVITE_TOKEN;

/** The caller a permission admits. */
type CallerOf<P extends StreamPermission> = P extends typeof INVITE_TOKEN ? ParticipantAuth : CustomerAuth;

/** The names of a path template's parameters: `'/v1/sessions/{sessionId}/pdf'` → `'sessionId'`. */
export type PathParams<T extends string> = T extends `${string}{${infer Name}}${infer Rest}` ? Name | PathParams<Rest> : never;

export interface StreamCall<Path extends string, P extends StreamPermission, Query> {
  /** The operation's path template: what an idempotent request's fingerprint names. */
  operation: Path;
  req: Request;
  res: Response;
  caller: CallerOf<P>;
  /** The path parameters, each one that could name a stored resource (else the answer was 404). */
  path: Record<PathParams<Path>, string>;
  /** The query string as its schema parsed it (GET); `{}` for a POST, which takes none. */
  query: Query;
  /** False once the process has begun to shut down: an answer that would go on (a stream) ends, so shutdown need not wait for it. */
  serving(): boolean;
}

export interface StreamOperationDeclaration<Path extends string, P extends StreamPermission, Q extends z.ZodType> {
  method: 'GET' | 'POST';
  /** The OpenAPI path template, `{name}` for each parameter. */
  path: Path;
  permission: P;
  /** A GET's query string; without one a GET takes no parameters (any is 400). */
  query?: Q;
  /** The OpenAPI operation beyond what the declaration states itself (path, query, permission). */
  openapi: Pick<ZodOpenApiOperationObject, 'operationId' | 'tags' | 'summary' | 'description' | 'requestBody' | 'responses'> & {
    /** Domain errors beyond the common ones, for the document's error responses. */
    errors?: ErrorCode[];
  };
  /** Made once when the app is built (an upload's parser is set up there), then run per request. */
  handler: (services: AppServices) => (call: StreamCall<Path, P, z.infer<Q>>) => Promise<void>;
}

/** A declared stream operation, its types erased so operations can be listed together. */
export interface StreamOperation {
  method: 'GET' | 'POST';
  path: string;
  permission: StreamPermission;
  openApiOperation: ZodOpenApiOperationObject;
  handler: (services: AppServices) => (call: StreamCall<string, StreamPermission, unknown>) => Promise<void>;
  /** Permission, path and query checked, in the order the REST adapter checks a procedure's. */
  checkedCall: (req: Request, res: Response, serving: () => boolean) => StreamCall<string, StreamPermission, unknown>;
}

export function defineStreamOperation<const Path extends string, const P extends StreamPermission, Q extends z.ZodType = z.ZodObject<Record<string, never>>>(
  declaration: StreamOperationDeclaration<Path, P, Q>,
): StreamOperation {
  const { method, path, permission, query, openapi } = declaration;
  const names = [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);
  const { errors, ...described } = openapi;
  const openApiOperation: ZodOpenApiOperationObject = {
    ...described,
    ...(permission === INVITE_TOKEN ? { security: [{ inviteToken: [] }] } : {}),
    ...(names.length > 0 || query
      ? {
          requestParams: {
            ...(names.length > 0 ? { path: z.object(Object.fromEntries(names.map((name) => [name, z.string()]))) } : {}),
            ...(query ? { query: query as unknown as z.ZodObject } : {}),
          },
        }
      : {}),
    'x-permission': permission,
    ...(errors ? { 'x-error-codes': errors } : {}),
  };
  const querySchema: z.ZodType = query ?? z.strictObject({});
  return {
    method,
    path,
    permission,
    openApiOperation,
    handler: declaration.handler as unknown as StreamOperation['handler'],
    checkedCall: (req, res, serving) => {
      // Permission before any input check, so a caller without it learns nothing about the input.
      const caller = permission === INVITE_TOKEN ? participantOf(req.auth) : assertPermission(req.auth, permission);
      const pathValues = Object.fromEntries(names.map((name) => [name, pathIdOf(req, name)]));
      const parsedQuery = method === 'GET' ? checkedInput(req.query, querySchema, 'query') : {};
      return { operation: path, req, res, caller, path: pathValues, query: parsedQuery, serving };
    },
  };
}

/** A path id that cannot name a stored resource is 404. */
function pathIdOf(req: Request, name: string): string {
  const value = String(req.params[name]);
  if (findUnstorableText(value)) throw new AppError('RESOURCE_NOT_FOUND', 'The resource was not found.');
  return value;
}

/**
 * Input the REST adapter does not see (a query string, an upload's fields): text PostgreSQL
 * cannot store (NUL, unpaired surrogates) is refused with its path (400 in a query, 422 in a
 * body), then the schema decides (errorFromZod: 400/422 with field paths), as for a procedure.
 */
export function checkedInput<T extends z.ZodType>(raw: unknown, schema: T, source: InputSource): z.infer<T> {
  const unstorable = findUnstorableText(raw);
  if (unstorable) {
    const problem = `${unstorable.path} ${unstorable.message}`;
    throw source === 'query'
      ? new AppError('INVALID_REQUEST', `Invalid query parameters: ${problem}.`, { fields: [unstorable] })
      : validationError([unstorable], `${problem}.`);
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw errorFromZod(parsed.error, raw, source);
  return parsed.data;
}

/**
 * In front of the stream operations, for every `/v1` and `/api` request the REST adapter did not
 * take: `If-Match` is honoured on PATCH and DELETE of a record only, so it is refused here as it
 * is there; and a POST takes no query parameters (its input is the body), so one is refused
 * rather than ignored.
 */
function refuseUnhonouredExtras(req: Request, _res: Response, next: NextFunction): void {
  if (req.get('If-Match') !== undefined) throw ifMatchNotHonoured(req.method, req.path);
  if (req.method === 'POST') refuseQueryBesideBody(req);
  next();
}

/** The Express routes of the stream operations (mounted after the REST adapter). */
export function streamOperationRoutes(services: AppServices, operations: readonly StreamOperation[], serving: () => boolean): Router {
  const routes = Router({ caseSensitive: true, strict: true });
  routes.use(['/v1', '/api'], refuseUnhonouredExtras);
  for (const operation of operations) {
    const handle = operation.handler(services);
    const expressPath = operation.path.replace(/\{(\w+)\}/g, ':$1');
    // Express 5 hands a rejected promise of a handler to the error handler.
    const route = (req: Request, res: Response) => handle(operation.checkedCall(req, res, serving));
    if (operation.method === 'GET') routes.get(expressPath, route);
    else routes.post(expressPath, route);
  }
  return routes;
}

/** The operations' OpenAPI paths, merged into the generated document. */
export function openApiPathsOf(operations: readonly StreamOperation[]): ZodOpenApiPathsObject {
  const paths: Record<string, Record<string, ZodOpenApiOperationObject>> = {};
  for (const operation of operations) {
    paths[operation.path] = { ...paths[operation.path], [operation.method.toLowerCase()]: operation.openApiOperation };
  }
  return paths as ZodOpenApiPathsObject;
}
