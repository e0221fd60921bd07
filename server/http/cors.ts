import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Config } from '../config.js';

/**
 * Cross-origin rules. `/trpc` is for first-party frontends: origins in `CORS_ORIGINS` may call it
 * from a browser with credentials. `/v1` and `/api` take secret API keys, which do not belong in
 * browsers: they send no CORS headers, so a page on another origin cannot read their answers.
 * Every OPTIONS is answered here, before authentication and rate limiting: 204 with `Allow`.
 */

const TRPC_METHODS = ['GET', 'POST'];
/** What tRPC's links and our clients send: the key or session, JSON, tRPC's streaming accept, a request id. */
const TRPC_REQUEST_HEADERS = 'Authorization, Content-Type, trpc-accept, X-Request-Id';
/** What a browser script may read from an answer besides the simple headers. */
const EXPOSED_HEADERS = 'X-Request-Id, Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset';
/** Browsers cap this anyway (Chromium at 2 hours); 10 minutes keeps a changed allowlist quick to apply. */
const PREFLIGHT_MAX_AGE_SECONDS = 600;

function isTrpcPath(path: string): boolean {
  return path === '/trpc' || path.startsWith('/trpc/');
}

function allowTrpcOrigin(req: Request, res: Response, origins: ReadonlySet<string>): boolean {
  res.vary('Origin');
  const origin = req.get('Origin');
  if (!origin || !origins.has(origin)) return false;
  res.setHeader('Access-Control-Allow-Origin', origin);
  res.setHeader('Access-Control-Allow-Credentials', 'true');
  return true;
}

/** CORS headers on every `/trpc` answer to an allowed origin, errors included (mounted before authentication). */
export function trpcCors(config: Pick<Config, 'corsOrigins'>): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    if (allowTrpcOrigin(req, res, config.corsOrigins)) res.setHeader('Access-Control-Expose-Headers', EXPOSED_HEADERS);
    next();
  };
}

/**
 * OPTIONS on a path the service serves: 204 with `Allow`, and for `/trpc` from an allowed origin
 * the preflight's answer. A refused origin gets the same 204 without CORS headers, which the
 * browser reads as no. Unknown paths fall through to the 404 every method gets.
 */
export function answerOptions(config: Pick<Config, 'corsOrigins'>, allowedMethods: (path: string) => string[]): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'OPTIONS') return next();
    const trpc = isTrpcPath(req.path);
    const methods = trpc ? TRPC_METHODS : allowedMethods(req.path);
    if (methods.length === 0) return next();
    res.setHeader('Allow', [...methods, 'OPTIONS'].join(', '));
    if (trpc && allowTrpcOrigin(req, res, config.corsOrigins) && req.get('Access-Control-Request-Method')) {
      res.setHeader('Access-Control-Allow-Methods', TRPC_METHODS.join(', '));
      res.setHeader('Access-Control-Allow-Headers', TRPC_REQUEST_HEADERS);
      res.setHeader('Access-Control-Max-Age', String(PREFLIGHT_MAX_AGE_SECONDS));
    }
    res.status(204).end();
  };
}
