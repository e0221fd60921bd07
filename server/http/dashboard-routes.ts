import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { type NextFunction, type Request, type Response, Router } from 'express';
import { findSharedLink } from '../domains/stakeholder-links/find-shared-link.js';
import { AppError } from '../errors.js';
import type { AppServices } from '../services.js';
import { WEB_DIR } from '../web/build-web-assets.js';

/** Where `npm run build:dashboard` (Vite) writes the research dashboard. */
const DASHBOARD_DIST_DIR = path.join(WEB_DIR, 'dashboard', 'dist');

/**
 * The dashboard's page: its own scripts and styles only (Vite writes no inline script), its
 * calls to `/trpc` on this origin, audio and script images from the signed links (PUBLIC_URL's
 * origin, which is another origin than the page's in development behind Vite's server).
 */
function dashboardCsp(publicUrl: string): string {
  const publicOrigin = new URL(publicUrl).origin;
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    `img-src 'self' ${publicOrigin} data:`,
    `media-src 'self' ${publicOrigin}`,
    "connect-src 'self'",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

function missingBuildPage(): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<title>Dashboard not built</title>
<style>body{margin:0;font:16px/1.5 system-ui,sans-serif;background:#f4f5f7;color:#1f2937}main{max-width:620px;margin:10vh auto;background:#fff;border-radius:8px;padding:32px}code{background:#eef0f3;padding:2px 6px;border-radius:4px}</style>
</head><body><main>
<h1>The research dashboard is not built</h1>
<p>This server serves the dashboard from <code>web/dashboard/dist</code>, which does not exist yet.</p>
<p>Build it with <code>npm run build:dashboard</code> (about 10 seconds), then reload this page. <code>npm start</code> builds it by itself when it is missing or older than its sources; in development, <code>npm run dev</code> serves it with Vite instead.</p>
</main></body></html>`;
}

/**
 * The research dashboard (web/dashboard, built by Vite) at `/app`: its hashed assets are
 * immutable; every other path under `/app` is the app's page (its router reads the path), so
 * deep links and reloads work. Its downloads are the service's signed links (`/files/{token}`).
 */
export function dashboardRoutes(services: AppServices, distDir = DASHBOARD_DIST_DIR): Router {
  const routes = Router({ caseSensitive: true, strict: true });
  const csp = dashboardCsp(services.config.publicUrl);
  const assetsDir = path.join(distDir, 'assets');

  routes.get('/app/assets/:file', async (req: Request<{ file: string }>, res: Response, next: NextFunction) => {
    const file = req.params.file;
    const full = path.join(assetsDir, file);
    // Vite's names are `name-hash.ext`: nothing else (no `..`, no dot files) is looked up.
    if (!/^[\w.-]+$/.test(file) || file.startsWith('.') || !existsSync(full)) {
      next(new AppError('RESOURCE_NOT_FOUND', `No file ${req.path}.`));
      return;
    }
    res.sendFile(
      full,
      { headers: { 'Cache-Control': 'public, max-age=31536000, immutable', 'X-Content-Type-Options': 'nosniff' }, lastModified: false },
      (error) => {
        if (error && !res.headersSent) next(error);
      },
    );
  });

  /**
   * The app's page. `shared`: a stakeholder link's, with the link's status, never cached nor sent
   * on as a Referer nor indexed (its URL holds the token).
   */
  const sendPage = async (res: Response, next: NextFunction, shared?: { status: number }): Promise<void> => {
    try {
      res.setHeader('Content-Security-Policy', csp);
      res.setHeader('X-Content-Type-Options', 'nosniff');
      res.setHeader('Referrer-Policy', shared ? 'no-referrer' : 'same-origin');
      res.setHeader('X-Frame-Options', 'DENY');
      if (shared) res.setHeader('X-Robots-Tag', 'noindex, nofollow');
      const indexFile = path.join(distDir, 'index.html');
      const built = await stat(indexFile).catch(() => undefined);
      if (!built) {
        res.setHeader('Cache-Control', 'no-store');
        res.status(503).type('html').send(missingBuildPage());
        return;
      }
      // Revalidated every time: a new build's page names new assets.
      res.setHeader('Cache-Control', shared ? 'no-store' : 'no-cache');
      res
        .status(shared?.status ?? 200)
        .type('html')
        .send(await readFile(indexFile, 'utf8'));
    } catch (error) {
      next(error);
    }
  };
  const page = (_req: Request, res: Response, next: NextFunction) => sendPage(res, next);
  routes.get(['/app', '/app/', '/app/*rest'], page);

  /**
   * A stakeholder link (`/shared/{token}`): the same app and CSP (its path renders the read-only
   * view, which reads the content through the public `stakeholderLinks.view`), answered with the
   * status the link has (404 unknown, 410 revoked, expired or its target deleted), as the invite
   * links are. No cookie is set or read; the request log names the route, not the path.
   */
  routes.get('/shared/:token', async (req: Request<{ token: string }>, res: Response, next: NextFunction) => {
    let status = 200;
    try {
      await findSharedLink(services.orm.em.fork(), req.params.token);
    } catch (error) {
      if (!(error instanceof AppError) || (error.status !== 404 && error.status !== 410)) return next(error);
      status = error.status;
    }
    await sendPage(res, next, { status });
  });
  return routes;
}
