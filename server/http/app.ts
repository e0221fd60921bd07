import { createExpressMiddleware } from '@trpc/server/adapters/express';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { API_VERSION } from '../../shared/api-version.js';
import { AppError } from '../errors.js';
import { faviconRoutes } from './favicon-routes.js';
import type { AppServices } from '../services.js';
import { appRouter } from '../trpc/app-router.js';
import { createContext } from '../trpc/context.js';
import { assertEveryProcedureHasPermission, publicProcedureNames } from '../trpc/trpc.js';
import { authenticateRequests, MAX_TRPC_BATCH_SIZE } from './authenticate.js';
import { answerOptions, trpcCors } from './cors.js';
import { docsRoutes } from './docs.js';
import { fileDownloadRoutes } from './file-downloads.js';
import { describeError } from './error-envelope.js';
import { refuseUnhonouredIdempotencyKey } from './idempotency.js';
import { parseJsonBody, requireJsonBody, trpcCallInputs } from './json-body.js';
import { secureTransport } from './transport-policy.js';
import { postmanCollection } from '../docs/postman-collection.js';
import { buildOpenApiDocument } from './openapi-document.js';
import { metricsRoute, observeRequests } from './observability.js';
import { participantPageRoutes } from './participant-pages.js';
import { webAssetRoutes, webAssets } from './web-asset-routes.js';
import { createRestHandler, RestRoutes } from './rest-adapter.js';
import { streamOperationRoutes } from './stream-operation.js';
import { STREAM_OPENAPI_PATHS, STREAM_OPERATIONS } from './stream-operations.js';
import { memberInvitationPageRoutes } from './member-invitation-page.js';
import { dashboardRoutes } from './dashboard-routes.js';
import { MCP_PATH, mcpRoutes } from '../mcp/mcp-routes.js';
import { resolveMcpTools } from '../mcp/mcp-server.js';
import { errorHandler, isWriteAfterTimeout, writeError } from './write-error.js';

/** What `/healthz` reports: ready once migrations ran and, where this process runs one, the worker is up. */
export interface Readiness {
  isReady(): boolean;
}

const API_PREFIXES = ['/v1', '/api', '/trpc', MCP_PATH];

/** The Express application: public routes, then authentication, then REST, tRPC and plain routes. */
export function createApp(services: AppServices, readiness: Readiness): Express {
  const { config, logger } = services;
  const app = express();
  app.disable('x-powered-by');
  // No weak ETag of every answer's bytes: a record's version is the strong tag the REST adapter
  // sets (what If-Match compares), and assets set their own.
  app.set('etag', false);
  // Paths are exact, as the OpenAPI document says: no case folding, no trailing-slash variants.
  app.set('case sensitive routing', true);
  app.set('strict routing', true);
  app.set('trust proxy', config.trustProxy);
  app.set('query parser', 'simple');
  // Observed first, so redirects carry a request id and are logged and counted too.
  app.use(observeRequests(services));
  app.use(secureTransport(config));

  assertEveryProcedureHasPermission(appRouter);
  const mcpTools = resolveMcpTools(appRouter);
  const routes = new RestRoutes(appRouter);
  for (const operation of STREAM_OPERATIONS) routes.addPlainRoute(operation.method, operation.path);

  // Pages and files outside the API answer GET (and HEAD) only; listed so a 405 names them.
  for (const path of [
    '/healthz',
    '/metrics',
    '/v1/openapi.json',
    '/v1/postman-collection.json',
    '/docs',
    '/docs/init.js',
    '/docs/assets/{file}',
    '/files/{token}',
    '/sdk/{release}/{file}',
    '/assets/{file}',
  ]) {
    routes.addPlainRoute('GET', path);
  }
  routes.addPlainRoute('POST', MCP_PATH);
  const allowedMethods = (path: string): string[] => {
    const allowed = routes.allowedMethods(path);
    if (allowed.includes('GET')) allowed.splice(allowed.indexOf('GET') + 1, 0, 'HEAD');
    return allowed;
  };

  /** 405 with `Allow` for a known path and another method, else 404: the same answer on every path. */
  const noRoute = (req: Request, _res: Response, next: NextFunction): void => {
    const allowed = allowedMethods(req.path);
    if (allowed.length > 0 && !allowed.includes(req.method)) {
      next(new AppError('METHOD_NOT_ALLOWED', `${req.method} is not supported on ${req.path}.`, { allowed }, { Allow: allowed.join(', ') }));
      return;
    }
    next(new AppError('RESOURCE_NOT_FOUND', `No route ${req.method} ${req.path}.`));
  };
  // OPTIONS is answered here, before authentication and rate limiting: 204 with Allow (and CORS
  // for /trpc); on an unknown path it is the 404 every method gets. Participant pages answer theirs.
  const optionsAnswer = answerOptions(config, allowedMethods);
  app.use((req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'OPTIONS' || /^\/(join|interview|embed)(\/|$)/.test(req.path)) return next();
    optionsAnswer(req, res, () => noRoute(req, res, next));
  });
  const openApiDocument = buildOpenApiDocument({
    router: appRouter,
    version: API_VERSION,
    extraPaths: STREAM_OPENAPI_PATHS,
  });

  app.get('/healthz', async (_req, res) => {
    // Its own connection and a 1 s bound: never queued behind request work in the pool.
    const databaseUp = await services.databaseProbe.check(1000);
    if (readiness.isReady() && databaseUp) {
      res.json({ status: 'ok' });
    } else {
      writeError(res, describeError(new AppError('SERVICE_UNAVAILABLE', 'The service is starting or its database is unreachable.', { databaseUp })));
    }
  });
  app.get('/metrics', metricsRoute(services));
  app.get('/v1/openapi.json', (_req, res) => {
    res.json(openApiDocument);
  });
  const postman = postmanCollection(openApiDocument, config.publicUrl);
  app.get('/v1/postman-collection.json', (_req, res) => {
    res.attachment('interview-service.postman_collection.json').json(postman);
  });
  app.use(faviconRoutes());
  app.use(docsRoutes());
  app.use(fileDownloadRoutes(services));
  // Built now rather than on the first participant's request.
  void webAssets();
  app.use(webAssetRoutes());
  app.use(participantPageRoutes(services));
  app.use(memberInvitationPageRoutes(services));
  // The research dashboard (its page carries its own CSP) and its signed downloads.
  app.use(dashboardRoutes(services));

  app.use(API_PREFIXES, (_req: Request, res: Response, next: NextFunction) => {
    // API answers are per caller and often private: never cached by browsers or proxies.
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('API-Version', API_VERSION);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    next();
  });
  app.use(API_PREFIXES, (req: Request, res: Response, next: NextFunction) => {
    // Labelled before authentication, so a 401 or 429 is counted under its operation too.
    res.locals.route = routes.templateFor(req.method, req.baseUrl + req.path);
    next();
  });
  app.use('/trpc', trpcCors(config));
  app.use(API_PREFIXES, authenticateRequests(services, publicProcedureNames(appRouter)));
  app.use(API_PREFIXES, refuseUnhonouredIdempotencyKey);
  app.use(['/v1', '/api'], parseJsonBody(config.jsonBodyLimitBytes));
  // MCP messages are JSON: any other body is the API's 415, before the SDK answers its own.
  app.use(MCP_PATH, requireJsonBody, parseJsonBody(config.jsonBodyLimitBytes));
  app.use(createRestHandler({ routes, router: appRouter, createContext: (req, res) => createContext(services, req, res, 'rest'), logger }));
  app.use(streamOperationRoutes(services, STREAM_OPERATIONS, () => readiness.isReady()));
  app.use(mcpRoutes(services, appRouter, mcpTools));
  // tRPC reads what the parser leaves in req.body; any body that is not JSON is 415 first. Its
  // reader re-serializes the body recursively: input too deep for that is refused (400) before.
  app.use('/trpc', requireJsonBody, parseJsonBody(config.jsonBodyLimitBytes, trpcCallInputs));
  app.use(
    '/trpc',
    createExpressMiddleware({
      router: appRouter,
      createContext: ({ req, res }) => createContext(services, req, res, 'trpc'),
      maxBatchSize: MAX_TRPC_BATCH_SIZE,
      maxBodySize: config.jsonBodyLimitBytes,
      // The formatter cannot set headers: Retry-After (429, 503) and Allow come through here.
      responseMeta: ({ errors }) => ({ headers: Object.assign({}, ...errors.map((error) => describeError(error).headers)) }),
      onError: ({ error, path }) => {
        if (isWriteAfterTimeout(error)) {
          logger.debug({ path }, 'answer not written: the request had timed out');
        } else if (describeError(error).unexpected) {
          logger.error({ err: error.cause ?? error, path }, 'unexpected error');
        }
      },
    }),
  );

  app.use(noRoute);
  app.use(errorHandler(logger));
  return app;
}
