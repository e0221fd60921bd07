import { livemodeOf, withLivemode } from './livemode.js';
import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AnyRouter } from '@trpc/server';
import type { NextFunction, Request, Response } from 'express';
import { forEachOpenApiProcedure, getInputOutputParsers, instanceofZodTypeKind, instanceofZodTypeObject, unwrapZodType } from 'trpc-to-openapi';
import { requiredPermissions } from '../../shared/permissions.js';
import { AppError } from '../errors.js';
import type { InputSource } from '../validation-errors.js';
import { describeError } from './error-envelope.js';
import { isNotJson, unsupportedMediaType } from './json-body.js';
import { findUnstorableText } from '../lib/text-safety.js';
import type { Logger } from '../logger.js';
import { answerIdempotently, idempotencyKeyOf } from './idempotency.js';
import { assertPermission, type Context } from '../trpc/context.js';
import { type AppMeta, INVITE_TOKEN, participantOf } from '../trpc/trpc.js';
import { writeError } from './write-error.js';
import { lockUntilCommit } from '../db/advisory-locks.js';

const METHOD_ORDER = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

interface RestRoute {
  method: string;
  pathPattern: RegExp;
  procedurePath: string;
  meta: AppMeta;
  /** Input keys whose schema is a number: from a URL they must be plain decimals. */
  numericInputs: ReadonlySet<string>;
  /** The procedure's output schema: a create whose answer has its record's GET schema answers that very record. */
  outputSchema: unknown;
  /** A create (with a `location`) whose answer has its record's GET schema: it answered the record itself. Set once, after every route is known. */
  answersItsRecord: boolean;
}

/** Plain decimal notation only; `Number()` would also take `0x10`, `1e1`, `' 5'` and `''`. */
const DECIMAL = /^-?\d+(\.\d+)?$/;

function numericInputsOf(procedure: Parameters<typeof getInputOutputParsers>[0]): Set<string> {
  const schema = unwrapZodType(getInputOutputParsers(procedure).inputParser, true);
  if (!instanceofZodTypeObject(schema)) return new Set();
  const shape = (schema as unknown as { shape: Record<string, unknown> }).shape;
  return new Set(Object.keys(shape).filter((key) => instanceofZodTypeKind(unwrapZodType(shape[key] as never, true), 'number')));
}

/**
 * A path template (`/v1/campaigns/{campaignId}`) as a pattern: exact and case-sensitive, as the
 * OpenAPI document states it (`/V1/CAMPAIGNS` and `/v1/campaigns/` are not it). trpc-to-openapi's
 * own `getPathRegExp` ignores case.
 */
function pathPatternOf(template: string): RegExp {
  const source = template
    .split(/(\{[^}]+\})/)
    .map((part) => (/^\{[^}]+\}$/.test(part) ? `(?<${part.slice(1, -1)}>[^/]+)` : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}$`);
}

export interface RestRouteMatch {
  route: RestRoute;
  pathParams: Record<string, string>;
}

/**
 * Our REST façade over the tRPC router. trpc-to-openapi's own handler writes a fixed error body
 * (mcampa/trpc-to-openapi#168) and coerces body fields globally; this adapter reuses its route
 * metadata and path matching but owns input assembly, success statuses and the error envelope.
 */
export class RestRoutes {
  readonly #routes: RestRoute[] = [];
  /** Routes outside the router (stream operations, pages and files): known here for the `Allow` header of 405s and for metrics. */
  readonly #plainRoutes: { method: string; pathPattern: RegExp; template: string }[] = [];

  constructor(router: AnyRouter) {
    forEachOpenApiProcedure(router._def.procedures, ({ path, meta, procedure }) => {
      const appMeta = meta as AppMeta;
      this.#routes.push({
        method: appMeta.openapi!.method,
        pathPattern: pathPatternOf(appMeta.openapi!.path),
        procedurePath: path,
        meta: appMeta,
        numericInputs: numericInputsOf(procedure),
        outputSchema: getInputOutputParsers(procedure).outputParser,
        answersItsRecord: false,
      });
    });
    for (const route of this.#routes) {
      const template = route.meta.location;
      const reader = template ? this.match('GET', template.replace(/\{\w+\}/g, 'x')) : undefined;
      route.answersItsRecord = reader !== undefined && reader.route.outputSchema === route.outputSchema;
    }
  }

  get routes(): readonly RestRoute[] {
    return this.#routes;
  }

  addPlainRoute(method: string, pathTemplate: string): void {
    this.#plainRoutes.push({ method, pathPattern: pathPatternOf(pathTemplate), template: pathTemplate });
  }

  /** The path template of the operation a request is for (`/v1/campaigns/{campaignId}`), for logs and metrics. */
  templateFor(method: string, path: string): string | undefined {
    const lookup = method === 'HEAD' ? 'GET' : method;
    const matched = this.match(lookup, path);
    if (matched) return matched.route.meta.openapi!.path as string;
    return this.#plainRoutes.find((route) => route.method === lookup && route.pathPattern.test(path))?.template;
  }

  match(method: string, path: string): RestRouteMatch | undefined {
    for (const route of this.#routes) {
      if (route.method !== method) continue;
      const found = route.pathPattern.exec(path);
      if (found) return { route, pathParams: { ...(found.groups ?? {}) } };
    }
    return undefined;
  }

  /** Methods some route serves on this path: the `Allow` header of a 405. */
  allowedMethods(path: string): string[] {
    const served = new Set([...this.#routes, ...this.#plainRoutes].filter((route) => route.pathPattern.test(path)).map((route) => route.method));
    return METHOD_ORDER.filter((method) => served.has(method));
  }
}

/** A strong entity tag of a record's JSON: equal exactly when the representation is. */
function entityTagOf(json: string): string {
  return `"${createHash('sha256').update(json).digest('base64url').slice(0, 27)}"`;
}

/** RFC 9110 If-Match: `*`, or a list of strong tags one of which is the current one. */
function entityTagMatches(header: string, current: string): boolean {
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim() === current);
}

/** Whether the caller holds the permission of `target` (a create's caller may lack the read permission of what it made). */
function mayCall(req: Request, target: RestRoute): boolean {
  const required = target.meta.permission;
  const auth = req.auth;
  if (!required || required === INVITE_TOKEN || !auth || auth.kind === 'participant') return false;
  return requiredPermissions(required).every((permission) => auth.permissions.includes(permission));
}

/** One record's path (it ends in a path parameter), not a list's or an action's. */
function isRecordPath(route: RestRoute): boolean {
  return /\}$/.test(String(route.meta.openapi!.path));
}

/** A `location` template (`/v1/projects/{id}`) filled from the created record; undefined when a field is missing. */
function locationOf(template: string | undefined, data: unknown): string | undefined {
  if (!template || !isPlainObject(data)) return undefined;
  let missing = false;
  const location = template.replace(/\{(\w+)\}/g, (_match, field: string) => {
    const value = data[field];
    if (typeof value !== 'string' && typeof value !== 'number') missing = true;
    return encodeURIComponent(String(value));
  });
  return missing ? undefined : location;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Path parameters decoded; one that cannot name a stored resource means 404. */
function decodePathParams(params: Record<string, string>, numericInputs: ReadonlySet<string>): Record<string, string> {
  const decoded: Record<string, string> = {};
  for (const [key, value] of Object.entries(params)) {
    try {
      decoded[key] = decodeURIComponent(value);
    } catch {
      throw new AppError('RESOURCE_NOT_FOUND', 'The resource was not found.');
    }
    if (findUnstorableText(decoded[key]) || (numericInputs.has(key) && !DECIMAL.test(decoded[key]!))) {
      throw new AppError('RESOURCE_NOT_FOUND', 'The resource was not found.');
    }
  }
  return decoded;
}

/** Query numbers in anything but plain decimal notation are refused (400), not guessed at. */
function assertDecimalQueryNumbers(query: Record<string, unknown>, numericInputs: ReadonlySet<string>): void {
  const fields = Object.entries(query)
    .filter(([key, value]) => numericInputs.has(key) && (typeof value !== 'string' || !DECIMAL.test(value)))
    .map(([key]) => ({ path: key, message: 'must be a number' }));
  if (fields.length > 0) {
    throw new AppError('INVALID_REQUEST', `Invalid query parameters: ${fields.map((f) => `${f.path} ${f.message}`).join('; ')}.`, { fields });
  }
}

/** A query parameter of an operation whose input is its body: 400 naming each (stream operations too). */
export function refuseQueryBesideBody(req: Request): void {
  const stray = Object.keys(req.query as Record<string, unknown>);
  if (stray.length === 0) return;
  throw new AppError('INVALID_REQUEST', `${req.method} takes its input in the body, not the query: ${stray.join(', ')}.`, {
    fields: stray.map((key) => ({ path: key, message: 'is not a query parameter of this operation' })),
  });
}

/** `If-Match` anywhere but a PATCH or DELETE of a record: 400 naming the header (stream operations too). */
export function ifMatchNotHonoured(method: string, path: string): AppError {
  return new AppError('INVALID_REQUEST', 'If-Match is honoured on PATCH and DELETE of a record.', {
    fields: [{ path: 'If-Match', message: `is not supported on ${method} ${path}` }],
  });
}

/**
 * The procedure's raw input: the JSON body (or the query string) plus the path parameters. A
 * path parameter repeated in the query or body is refused rather than silently overridden, and
 * text PostgreSQL cannot store is refused before it reaches the database.
 */
function rawInputOf(req: Request, source: InputSource, pathParams: Record<string, string>): Record<string, unknown> {
  let given: Record<string, unknown>;
  if (source === 'query') {
    given = req.query as Record<string, unknown>;
  } else if (req.body === undefined) {
    if (isNotJson(req)) throw unsupportedMediaType(req);
    given = {};
  } else if (!isPlainObject(req.body)) {
    throw new AppError('INVALID_REQUEST', 'The request body must be a JSON object.');
  } else {
    given = req.body;
  }
  // The input is the body: a query parameter would be silently ignored, so it is refused.
  if (source === 'body') refuseQueryBesideBody(req);
  const code = source === 'query' ? 'INVALID_REQUEST' : 'VALIDATION_ERROR';
  const repeated = Object.keys(pathParams).filter((key) => key in given);
  if (repeated.length > 0) {
    const fields = repeated.map((key) => ({ path: key, message: 'is taken from the URL path; do not send it here' }));
    throw new AppError(code, `${repeated.join(', ')} is taken from the URL path.`, { fields });
  }
  const unstorable = findUnstorableText(given);
  if (unstorable) throw new AppError(code, `${unstorable.path} ${unstorable.message}.`, { fields: [unstorable] });
  return { ...given, ...pathParams };
}

export interface RestHandlerOptions {
  routes: RestRoutes;
  router: AnyRouter;
  createContext: (req: Request, res: Response) => Context;
  logger: Logger;
}

export function createRestHandler(options: RestHandlerOptions) {
  const { routes, router, createContext, logger } = options;
  const createCaller = router.createCaller as (ctx: Context) => Record<string, unknown>;

  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    // HEAD is GET without a body (Node drops the body of HEAD responses itself).
    const matched = routes.match(req.method === 'HEAD' ? 'GET' : req.method, req.path);
    if (!matched) {
      next();
      return;
    }
    const { route } = matched;
    const source: InputSource = req.method === 'GET' || req.method === 'HEAD' || req.method === 'DELETE' ? 'query' : 'body';
    let rawInput: unknown;
    const pathParams = Object.keys(matched.pathParams);
    try {
      // Permission before any input check, so a caller without it learns nothing about the input.
      const { permission } = route.meta;
      const participantAllowed = req.auth?.kind === 'participant' && route.meta.participant === true;
      if (permission === INVITE_TOKEN) participantOf(req.auth);
      else if (permission && !participantAllowed) assertPermission(req.auth, permission);
      if (source === 'query') assertDecimalQueryNumbers(req.query as Record<string, unknown>, route.numericInputs);
      rawInput = rawInputOf(req, source, decodePathParams(matched.pathParams, route.numericInputs));
      const context = createContext(req, res);
      // A malformed key is refused before anything else about the request (answerIdempotently reads it again).
      if (req.method === 'POST') idempotencyKeyOf(req);
      const callRoute = (target: RestRoute, ctx: Context, input: unknown) => {
        const procedure = target.procedurePath.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], createCaller(ctx));
        // Every record answered says which world it is of (test mode).
        return (procedure as (input: unknown) => Promise<unknown>)(input).then((data) => withLivemode(data, livemodeOf(req.auth)));
      };
      const call = (ctx: Context) => callRoute(route, ctx, rawInput);
      // The operation's own choice (a resumed interview: 200), else its meta's; known once it ran.
      const statusOf = () => context.answer.status ?? route.meta.successStatus ?? 200;
      // Stored with an idempotent answer too, so a replay carries them; not sent once the request
      // timeout has answered 503.
      const createdHeaders = async (ctx: Context, data: unknown): Promise<Record<string, string>> => {
        const location = statusOf() === 201 ? locationOf(route.meta.location, data) : undefined;
        if (!location) return {};
        const headers: Record<string, string> = { Location: location };
        // The created record's version, as its GET answers it (a create may answer more, such as
        // a secret shown once): If-Match with it applies to what was just made. A create that
        // answers with its record's own schema answered the record itself: no second read.
        const reader = routes.match('GET', location);
        if (reader && mayCall(req, reader.route)) {
          const read = route.answersItsRecord ? data : await callRoute(reader.route, ctx, decodePathParams(reader.pathParams, reader.route.numericInputs));
          headers.ETag = entityTagOf(JSON.stringify(read));
        }
        if (!res.headersSent) for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
        return headers;
      };
      // A create and the read of its version share one transaction, so the tag is of that very
      // version even when another request changes the record at once.
      // (A create that answers its record itself needs neither: null runs it as it is.)
      const created = async (ctx: Context, tx: EntityManager | null) => {
        const inTransaction = tx ? { ...ctx, transaction: tx } : ctx;
        const data = await call(inTransaction);
        return { data, headers: await createdHeaders(inTransaction, data) };
      };
      let body: string | null;
      const ifMatch = req.get('If-Match');
      if (ifMatch !== undefined) {
        // Optimistic concurrency: the change applies only to the version the caller read.
        // Only records have versions: a path ending in the record's id, as the document says.
        const reader = (req.method === 'PATCH' || req.method === 'DELETE') && isRecordPath(route) ? routes.match('GET', req.path) : undefined;
        if (!reader) {
          throw ifMatchNotHonoured(req.method, String(route.meta.openapi!.path));
        }
        const readInput = decodePathParams(reader.pathParams, reader.route.numericInputs);
        const data = await context.services.orm.em.fork().transactional(async (tx) => {
          // Conditional writers of one record take turns, so two cannot both pass the same check.
          await lockUntilCommit(tx, `if-match ${req.auth?.organizationId ?? ''} ${req.path}`);
          const inTransaction = { ...context, transaction: tx };
          const current = entityTagOf(JSON.stringify(await callRoute(reader.route, inTransaction, readInput)));
          if (!entityTagMatches(ifMatch, current)) {
            throw new AppError(
              'PRECONDITION_FAILED',
              'The record changed since the version If-Match names; read it again (its ETag is in this answer) and retry.',
              { etag: current },
              { ETag: current },
            );
          }
          return call(inTransaction);
        });
        body = statusOf() === 204 ? null : JSON.stringify(data);
      } else if (req.method === 'POST') {
        // The schema checks run inside the procedure: a 400/422 from there releases the claim again.
        const answer = await answerIdempotently(
          req,
          res,
          // The operation and its decoded input (path parameters included), not the raw path:
          // `/cam%5F1` and `/cam_1` are the same request.
          { auth: req.auth, operation: String(route.meta.openapi!.path), fingerprint: rawInput },
          context.services,
          async ({ em, claimed }) => {
            if (claimed) {
              const { data, headers } = await created(context, em);
              return { status: statusOf(), body: data, headers };
            }
            if (statusOf() === 201 && route.meta.location) {
              const { data } = route.answersItsRecord
                ? await created(context, null)
                : await context.services.orm.em.fork().transactional((tx) => created(context, tx));
              return { status: statusOf(), body: data };
            }
            const data = await call(context);
            return { status: statusOf(), body: data };
          },
          { describe: (error) => describeError(error, { rawInput, source, pathParams }) },
        );
        if (!answer) return;
        body = answer.json;
      } else if (statusOf() === 201 && route.meta.location) {
        const { data } = route.answersItsRecord
          ? await created(context, null)
          : await context.services.orm.em.fork().transactional((tx) => created(context, tx));
        body = JSON.stringify(data);
      } else {
        const data = await call(context);
        body = statusOf() === 204 ? null : JSON.stringify(data);
      }
      // Already answered 503 by the request timeout: the outcome is stored above, nothing to send.
      if (res.headersSent) return;
      // A record's version: what If-Match takes back (a GET or PATCH of one record).
      const status = statusOf();
      if (body !== null && status === 200 && (req.method === 'GET' || req.method === 'HEAD' || req.method === 'PATCH') && isRecordPath(route)) {
        res.setHeader('ETag', entityTagOf(body));
      }
      if (body === null) res.status(status).end();
      else res.status(status).type('application/json').send(body);
    } catch (error) {
      const described = describeError(error, { rawInput, source, pathParams });
      if (described.unexpected) {
        logger.error({ err: error instanceof Error && error.cause ? error.cause : error, route: route.procedurePath }, 'unexpected error');
      }
      writeError(res, described);
    }
  };
}
