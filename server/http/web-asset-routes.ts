import { type NextFunction, type Request, type Response, Router } from 'express';
import { AppError } from '../errors.js';
import { buildWebAssets, type WebAsset, type WebAssets } from '../web/build-web-assets.js';

let built: Promise<WebAssets> | undefined;

/** The browser files, built once per process (the first call starts the build). */
export function webAssets(): Promise<WebAssets> {
  if (!built) {
    built = buildWebAssets();
    // A failed build is reported where it is awaited (each request), not as an unhandled rejection.
    built.catch(() => undefined);
  }
  return built;
}

const IMMUTABLE = 'public, max-age=31536000, immutable';

function sendAsset(req: Request, res: Response, asset: WebAsset, cacheControl: string): void {
  res.setHeader('Content-Type', asset.contentType);
  res.setHeader('Cache-Control', cacheControl);
  res.setHeader('ETag', asset.etag);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  if (req.headers['if-none-match'] === asset.etag) {
    res.status(304).end();
    return;
  }
  res.setHeader('Content-Length', String(asset.body.length));
  res.status(200).end(req.method === 'HEAD' ? undefined : asset.body);
}

/**
 * The embed SDK (design.md "Embed"): `/sdk/v<version>/interview-sdk.js` (global) and `.mjs`
 * (module), immutable, plus `/sdk/latest/…` for development (5 minutes); readable from any
 * origin (a module import is a CORS request). And the interview page's own script and styles
 * under content-hashed names, for its pages only.
 */
export function webAssetRoutes(): Router {
  const routes = Router({ caseSensitive: true, strict: true });

  routes.get('/sdk/:release/:file', async (req: Request<{ release: string; file: string }>, res: Response, next: NextFunction) => {
    try {
      const assets = await webAssets();
      const { release, file } = req.params;
      const asset = file === 'interview-sdk.js' ? assets.sdkGlobal : file === 'interview-sdk.mjs' ? assets.sdkModule : undefined;
      const pinned = release === `v${assets.sdkVersion}`;
      if (!asset || (!pinned && release !== 'latest')) {
        throw new AppError('RESOURCE_NOT_FOUND', `No SDK file ${req.path}; the current one is /sdk/v${assets.sdkVersion}/interview-sdk.js (or .mjs).`);
      }
      res.setHeader('Access-Control-Allow-Origin', '*');
      res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
      sendAsset(req, res, asset, pinned ? IMMUTABLE : 'public, max-age=300');
    } catch (error) {
      next(error);
    }
  });

  routes.get('/assets/:file', async (req: Request<{ file: string }>, res: Response, next: NextFunction) => {
    try {
      const { page } = await webAssets();
      const found = [page.script, page.style, page.captureWorklet].find((candidate) => candidate.name === req.params.file);
      if (!found) throw new AppError('RESOURCE_NOT_FOUND', `No file ${req.path}.`);
      sendAsset(req, res, found.asset, IMMUTABLE);
    } catch (error) {
      next(error);
    }
  });

  return routes;
}
