import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { type NextFunction, type Request, type Response, Router } from 'express';
import { ZPdfQuery } from '../../shared/schemas/transcripts.js';
import { loadInvoice } from '../domains/billing/list-invoices.js';
import { toInvoiceDto } from '../domains/billing/serialize.js';
import { assembleSessionReport } from '../domains/reports/assemble-session-report.js';
import { TRANSCRIPT_MEDIA_TYPES } from '../domains/transcripts/format-transcript.js';
import { getTranscript } from '../domains/transcripts/get-transcript.js';
import { FULL_TRANSCRIPT } from '../domains/transcripts/shape-transcript.js';
import { type DownloadTarget, openDownload } from '../domains/workspace/download-links.js';
import { AppError } from '../errors.js';
import { renderInvoice } from '../reports/render-invoice.js';
import { renderSessionReport } from '../reports/render-session-report.js';
import type { AppServices } from '../services.js';
import { WEB_DIR } from '../web/build-web-assets.js';

/** Where `npm run build:dashboard` (Vite) writes the research dashboard. */
export const DASHBOARD_DIST_DIR = path.join(WEB_DIR, 'dashboard', 'dist');

/** The service's name on invoices, as invoice-routes.ts prints it. */
const ISSUER_NAME = 'Interview Service';

/**
 * The dashboard's page: its own scripts and styles only (Vite writes no inline script), its
 * calls to `/trpc` on this origin, audio from the signed links (PUBLIC_URL's origin, which is
 * another origin than the page's in development behind Vite's server).
 */
export function dashboardCsp(publicUrl: string): string {
  const publicOrigin = new URL(publicUrl).origin;
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
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
<title>Dashboard not built</title>
<style>body{margin:0;font:16px/1.5 system-ui,sans-serif;background:#f4f5f7;color:#1f2937}main{max-width:620px;margin:10vh auto;background:#fff;border-radius:8px;padding:32px}code{background:#eef0f3;padding:2px 6px;border-radius:4px}</style>
</head><body><main>
<h1>The research dashboard is not built</h1>
<p>This server serves the dashboard from <code>web/dashboard/dist</code>, which does not exist yet.</p>
<p>Build it with <code>npm run build:dashboard</code> (about 10 seconds), then reload this page. <code>npm start</code> builds it by itself when it is missing or older than its sources; in development, <code>npm run dev</code> serves it with Vite instead.</p>
</main></body></html>`;
}

/** Headers every download answer carries: private, never kept, never sent on as a Referer (the URL is the credential). */
function downloadHeaders(res: Response, contentType: string, filename: string): void {
  res.setHeader('Content-Type', contentType);
  res.setHeader('Content-Disposition', `attachment; filename="${filename.replace(/[^\x20-\x7e]|"/g, '_')}"`);
  res.setHeader('Cache-Control', 'private, no-store');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('X-Content-Type-Options', 'nosniff');
}

/**
 * The research dashboard (web/dashboard, built by Vite) at `/app`: its hashed assets are
 * immutable; every other path under `/app` is the app's page (its router reads the path), so
 * deep links and reloads work. And `/app/downloads/{token}`: the signed downloads the dashboard
 * asks `workspace.sessionDownload` / `workspace.invoiceDownload` for.
 */
export function dashboardRoutes(services: AppServices, distDir = DASHBOARD_DIST_DIR): Router {
  const routes = Router({ caseSensitive: true, strict: true });
  const csp = dashboardCsp(services.config.publicUrl);
  const assetsDir = path.join(distDir, 'assets');

  routes.get('/app/downloads/:token', async (req: Request<{ token: string }>, res: Response, next: NextFunction) => {
    try {
      res.locals.route = '/app/downloads/{token}';
      const target = openDownload(services.sealer, req.params.token);
      if (!target) throw new AppError('RESOURCE_NOT_FOUND', 'This link is invalid or has expired: download again from the dashboard.');
      await sendDownload(services, target, res);
    } catch (error) {
      next(error);
    }
  });

  routes.get('/app/assets/:file', async (req: Request<{ file: string }>, res: Response, next: NextFunction) => {
    const file = req.params.file;
    const full = path.join(assetsDir, file);
    // Vite's names are `name-hash.ext`: nothing else (no `..`, no dot files) is looked up.
    if (!/^[\w.-]+$/.test(file) || file.startsWith('.') || !existsSync(full)) {
      next(new AppError('RESOURCE_NOT_FOUND', `No file ${req.path}.`));
      return;
    }
    res.sendFile(full, { headers: { 'Cache-Control': 'public, max-age=31536000, immutable', 'X-Content-Type-Options': 'nosniff' }, lastModified: false }, (error) => {
      if (error && !res.headersSent) next(error);
    });
  });

  const page = async (_req: Request, res: Response, next: NextFunction): Promise<void> => {
    try {
      res.setHeader('Content-Security-Policy', csp);
      res.setHeader('X-Content-Type-Options', 'nosniff');
      res.setHeader('Referrer-Policy', 'same-origin');
      res.setHeader('X-Frame-Options', 'DENY');
      const indexFile = path.join(distDir, 'index.html');
      const built = await stat(indexFile).catch(() => undefined);
      if (!built) {
        res.setHeader('Cache-Control', 'no-store');
        res.status(503).type('html').send(missingBuildPage());
        return;
      }
      // Revalidated every time: a new build's page names new assets.
      res.setHeader('Cache-Control', 'no-cache');
      res.status(200).type('html').send(await readFile(indexFile, 'utf8'));
    } catch (error) {
      next(error);
    }
  };
  routes.get(['/app', '/app/', '/app/*rest'], page);
  return routes;
}

async function sendDownload(services: AppServices, target: DownloadTarget, res: Response): Promise<void> {
  const em = services.orm.em.fork();
  const fonts = { fallback: services.config.pdfFallbackFont };
  if (target.kind === 'session_text') {
    const transcript = await getTranscript(em, target.organizationId, target.sessionId, FULL_TRANSCRIPT);
    const media = TRANSCRIPT_MEDIA_TYPES.text;
    downloadHeaders(res, media.contentType, `transcript-${target.sessionId}.${media.extension}`);
    res.send(media.render(transcript));
    return;
  }
  let document: PDFKit.PDFDocument;
  let filename: string;
  if (target.kind === 'session_pdf') {
    const query = ZPdfQuery.parse({});
    const report = await assembleSessionReport(em, services.logos, target.organizationId, target.sessionId, query);
    document = renderSessionReport(report, query, fonts);
    filename = `interview-${target.sessionId}.pdf`;
  } else {
    const invoice = await loadInvoice(em, target.organizationId, target.invoiceId);
    document = renderInvoice(
      { invoice: toInvoiceDto(invoice), organization: { id: invoice.organization.id, name: invoice.organization.name }, issuer: { name: ISSUER_NAME, url: services.config.publicUrl } },
      fonts,
    );
    filename = `${invoice.number}.pdf`;
  }
  downloadHeaders(res, 'application/pdf', filename);
  document.on('error', (error: Error) => res.destroy(error));
  document.pipe(res);
}
