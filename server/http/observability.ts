import { randomBytes, timingSafeEqual } from 'node:crypto';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { AppError } from '../errors.js';
import { describeError } from './error-envelope.js';
import { isLoopback } from '../lib/loopback.js';
import { requestContext } from '../lib/request-context.js';
import type { AppServices } from '../services.js';
import { writeError } from './write-error.js';

/** A request that timed out may be retried after a short wait (its first run may still be finishing). */
const TIMEOUT_RETRY_AFTER_SECONDS = 2;

const INCOMING_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
/** Probes and scrapes: logged at debug, or they drown the rest. */
const QUIET_ROUTES = new Set(['/healthz', '/metrics']);

/** The route template a request matched, for logs and metric labels (never the raw path). */
function routeOf(req: Request, res: Response): string {
  if (typeof res.locals.route === 'string') return res.locals.route;
  if (req.route?.path) return `${req.baseUrl}${String(req.route.path)}`;
  return 'unmatched';
}

/**
 * First middleware: a request id (the caller's `X-Request-Id` when well-formed, else a new one),
 * echoed in the response and carried by every log line of the request; one log line and the
 * metrics when the response is done; and the request timeout.
 */
export function observeRequests(services: AppServices) {
  const { logger, metrics, config } = services;
  const timeoutMs = config.requestTimeoutSeconds * 1000;
  return (req: Request, res: Response, next: NextFunction): void => {
    const incoming = req.get('x-request-id');
    const requestId = incoming && INCOMING_REQUEST_ID.test(incoming) ? incoming : `req_${randomBytes(12).toString('base64url')}`;
    res.setHeader('X-Request-Id', requestId);
    const started = process.hrtime.bigint();

    // A handler still running after the timeout gets a 503 answer; what it does next is not awaited.
    // Uploads are exempt: their time is mostly the client sending the file (bounded by size
    // limits and Node's own request timeout), and a 503 would hide a media file created anyway.
    const timer = setTimeout(() => {
      if (req.is('multipart/form-data')) return;
      if (res.headersSent) return;
      if (typeof res.locals.answerTimeout === 'function') {
        res.locals.answerTimeout();
        return;
      }
      const error = new AppError(
        'SERVICE_UNAVAILABLE',
        `The request took longer than ${config.requestTimeoutSeconds} s. Retry it (with its Idempotency-Key for a POST).`,
        { timeoutSeconds: config.requestTimeoutSeconds, retryAfter: TIMEOUT_RETRY_AFTER_SECONDS },
        { 'Retry-After': String(TIMEOUT_RETRY_AFTER_SECONDS) },
      );
      writeError(res, describeError(error));
    }, timeoutMs);
    timer.unref();

    res.on('close', () => {
      clearTimeout(timer);
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const route = routeOf(req, res);
      // A connection closed before the answer was written is recorded as status 499, as nginx does.
      const status = res.writableFinished ? String(res.statusCode) : '499';
      metrics.httpRequests.inc({ method: req.method, route, status });
      metrics.httpDuration.observe({ method: req.method, route, status }, seconds);
      const line = {
        requestId,
        method: req.method,
        route,
        status: Number(status),
        durationMs: Math.round(seconds * 1000 * 10) / 10,
        organizationId: req.auth?.organizationId,
      };
      if (QUIET_ROUTES.has(route)) logger.debug(line, 'request');
      else logger.info(line, 'request');
    });
    requestContext.run({ requestId }, next);
  };
}

/**
 * `GET /metrics` (Prometheus text format). With METRICS_TOKEN it needs that bearer token;
 * without, only loopback clients (as seen through TRUST_PROXY) may read it.
 */
export function metricsRoute(services: AppServices) {
  const { metrics, config } = services;
  const expected = config.metricsToken ? Buffer.from(`Bearer ${config.metricsToken}`) : undefined;
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    try {
      res.locals.route = '/metrics';
      const given = Buffer.from(req.get('authorization') ?? '');
      const allowed = expected ? given.length === expected.length && timingSafeEqual(given, expected) : isLoopback(req.ip);
      if (!allowed) throw new AppError('RESOURCE_NOT_FOUND', `No route ${req.method} ${req.path}.`);
      res.setHeader('Content-Type', metrics.registry.contentType);
      res.setHeader('Cache-Control', 'no-store');
      res.send(await metrics.registry.metrics());
    } catch (error) {
      next(error);
    }
  };
}

/**
 * What a worker-only process serves (`WORKER_METRICS_PORT`): its health and its own metrics
 * (job and email outcomes are counted where the jobs run), nothing of the API.
 */
export function createWorkerMetricsApp(services: AppServices, readiness: { isReady(): boolean }): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', services.config.trustProxy);
  app.get('/healthz', (_req, res) => {
    if (readiness.isReady()) res.json({ status: 'ok' });
    else writeError(res, describeError(new AppError('SERVICE_UNAVAILABLE', 'The worker is starting or stopping.')));
  });
  app.get('/metrics', metricsRoute(services));
  app.use((req: Request, res: Response) => {
    res.status(404).json({ error: { code: 'RESOURCE_NOT_FOUND', message: `No route ${req.method} ${req.path}.`, details: {} } });
  });
  app.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => writeError(res, describeError(error)));
  return app;
}
