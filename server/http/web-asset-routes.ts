import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
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

const gzipped = new WeakMap<WebAsset, Promise<Buffer>>();

/** The asset gzip-encoded, compressed once (off the event loop) on its first request. */
function gzippedBody(asset: WebAsset): Promise<Buffer> {
  let body = gzipped.get(asset);
  if (!body) {
    body = promisify(gzip)(asset.body, { level: 6 });
    gzipped.set(asset, body);
  }
  return body;
}

function acceptsGzip(req: Request): boolean {
  return /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
}

async function sendAsset(req: Request, res: Response, asset: WebAsset, cacheControl: string): Promise<void> {
  res.setHeader('Content-Type', asset.contentType);
  res.setHeader('Cache-Control', cacheControl);
  res.setHeader('ETag', asset.etag);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  if (asset.compressible) res.setHeader('Vary', 'Accept-Encoding');
  if (req.headers['if-none-match'] === asset.etag) {
    res.status(304).end();
    return;
  }
  // The voice runtime's WebAssembly is 14 MB, 3.7 MB gzipped: a phone's first voice interview should not wait for the difference.
  const body = asset.compressible && acceptsGzip(req) ? await gzippedBody(asset) : asset.body;
  if (res.headersSent) return;
  if (body !== asset.body) res.setHeader('Content-Encoding', 'gzip');
  res.setHeader('Content-Length', String(body.length));
  res.status(200).end(req.method === 'HEAD' ? undefined : body);
}

/**
 * The embed SDK (design.md "Embed"): `/sdk/v<version>/interview-sdk.js` (global) and `.mjs`
 * (module), immutable, plus `/sdk/latest/…` for development (5 minutes); readable from any
 * origin (a module import is a CORS request). And the interview page's own script and styles
 * under content-hashed names, for its pages only, with the voice runtime it loads when voice mode
 * starts (its module, Silero VAD's model, onnxruntime-web's WebAssembly as `application/wasm`,
 * which WebAssembly's streaming compile requires).
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
      await sendAsset(req, res, asset, pinned ? IMMUTABLE : 'public, max-age=300');
    } catch (error) {
      next(error);
    }
  });

  routes.get('/assets/:file', async (req: Request<{ file: string }>, res: Response, next: NextFunction) => {
    try {
      const { page, voice } = await webAssets();
      const found = [page.script, page.style, page.captureWorklet, voice.module, voice.model, voice.wasm].find(
        (candidate) => candidate.name === req.params.file,
      );
      if (!found) throw new AppError('RESOURCE_NOT_FOUND', `No file ${req.path}.`);
      await sendAsset(req, res, found.asset, IMMUTABLE);
    } catch (error) {
      next(error);
    }
  });

  return routes;
}
