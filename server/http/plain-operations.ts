import { exportOpenApiPaths } from './export-routes.js';
import { invoiceOpenApiPaths } from './invoice-routes.js';
import { participantApiOpenApiPaths } from './participant-api.js';
import { resultsOpenApiPaths } from './results-routes.js';
import { scriptMediaOpenApiPaths } from './script-media-routes.js';
import { sessionFileOpenApiPaths } from './session-file-routes.js';

/**
 * Every operation served by a plain Express route (multipart uploads, the participant API),
 * described once in OpenAPI form: the document, the 405 `Allow` header and the README table read
 * them from here.
 */
export const PLAIN_OPENAPI_PATHS = {
  ...scriptMediaOpenApiPaths,
  ...sessionFileOpenApiPaths,
  ...participantApiOpenApiPaths,
  ...resultsOpenApiPaths,
  ...exportOpenApiPaths,
  ...invoiceOpenApiPaths,
};
