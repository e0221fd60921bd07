import type { AnyRouter } from '@trpc/server';
import type { NextFunction, Request, Response } from 'express';
import { forEachOpenApiProcedure, getPathRegExp, normalizePath } from 'trpc-to-openapi';
import { AppError, describeError, type InputSource } from '../errors.js';
import type { Logger } from '../logger.js';
import type { Context } from '../trpc/context.js';
import type { AppMeta } from '../trpc/trpc.js';
import { writeError } from './write-error.js';

const METHOD_ORDER = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

interface RestRoute {
  method: string;
  pathPattern: RegExp;
  procedurePath: string;
  meta: AppMeta;
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
  /** Plain Express routes (uploads, binary bodies): only known here for the `Allow` header of 405s. */
  readonly #plainRoutes: { method: string; pathPattern: RegExp }[] = [];

  constructor(router: AnyRouter) {
    forEachOpenApiProcedure(router._def.procedures, ({ path, meta }) => {
      const appMeta = meta as AppMeta;
      this.#routes.push({
        method: appMeta.openapi!.method,
        pathPattern: getPathRegExp(normalizePath(appMeta.openapi!.path)),
        procedurePath: path,
        meta: appMeta,
      });
    });
  }

  get routes(): readonly RestRoute[] {
    return this.#routes;
  }

  addPlainRoute(method: string, pathTemplate: string): void {
    this.#plainRoutes.push({ method, pathPattern: getPathRegExp(normalizePath(pathTemplate)) });
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

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function hasRequestBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined;
}

function decodePathParams(params: Record<string, string>): Record<string, string> {
  const decoded: Record<string, string> = {};
  for (const [key, value] of Object.entries(params)) {
    try {
      decoded[key] = decodeURIComponent(value);
    } catch {
      throw new AppError('RESOURCE_NOT_FOUND', 'The resource was not found.');
    }
  }
  return decoded;
}

/** The procedure's raw input: JSON body (or query string) merged with path parameters, which win. */
function rawInputOf(req: Request, source: InputSource, pathParams: Record<string, string>): Record<string, unknown> {
  if (source === 'query') return { ...(req.query as Record<string, unknown>), ...pathParams };
  if (req.body === undefined) {
    if (hasRequestBody(req)) {
      throw new AppError('INVALID_REQUEST', 'The request body must be JSON, sent with "Content-Type: application/json".');
    }
    return { ...pathParams };
  }
  if (!isPlainObject(req.body)) throw new AppError('INVALID_REQUEST', 'The request body must be a JSON object.');
  return { ...req.body, ...pathParams };
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
    const matched = routes.match(req.method === 'HEAD' ? 'GET' : req.method, normalizePath(req.path));
    if (!matched) {
      next();
      return;
    }
    const { route } = matched;
    const source: InputSource = req.method === 'GET' || req.method === 'HEAD' || req.method === 'DELETE' ? 'query' : 'body';
    let rawInput: unknown;
    const pathParams = Object.keys(matched.pathParams);
    try {
      rawInput = rawInputOf(req, source, decodePathParams(matched.pathParams));
      const caller = createCaller(createContext(req, res));
      const procedure = route.procedurePath.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], caller);
      const data = await (procedure as (input: unknown) => Promise<unknown>)(rawInput);
      const status = route.meta.successStatus ?? 200;
      if (status === 204) res.status(204).end();
      else res.status(status).json(data);
    } catch (error) {
      const described = describeError(error, { rawInput, source, pathParams });
      if (described.unexpected) {
        logger.error({ err: error instanceof Error && error.cause ? error.cause : error, route: route.procedurePath }, 'unexpected error');
      }
      writeError(res, described);
    }
  };
}
