import { createRequire } from 'node:module';
import path from 'node:path';
import express, { Router } from 'express';

const require = createRequire(import.meta.url);
const swaggerUiDir = path.dirname(require.resolve('swagger-ui-dist/package.json'));

const DOCS_PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>Interview Service API</title>
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
    <link rel="stylesheet" href="/docs/assets/swagger-ui.css" />
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="/docs/assets/swagger-ui-bundle.js"></script>
    <script src="/docs/init.js"></script>
  </body>
</html>
`;

// Kept out of the page so a strict Content-Security-Policy (no inline scripts) works.
const DOCS_INIT = `window.ui = SwaggerUIBundle({
  url: '/v1/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  persistAuthorization: false,
});
`;

/** `GET /docs`: Swagger UI over `/v1/openapi.json`, served from the local swagger-ui-dist package (no CDN). */
export function docsRoutes(): Router {
  const docs = Router({ caseSensitive: true, strict: true });
  docs.get('/docs', (_req, res) => {
    res.type('html').send(DOCS_PAGE);
  });
  docs.get('/docs/init.js', (_req, res) => {
    res.type('application/javascript').send(DOCS_INIT);
  });
  docs.use('/docs/assets', express.static(swaggerUiDir, { index: false, maxAge: '1h' }));
  return docs;
}
