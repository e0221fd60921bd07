import { eventStreamOperation } from './event-stream-routes.js';
import { exportOperations } from './export-routes.js';
import { invoicePdfOperation } from './invoice-routes.js';
import { answerInterviewOperation } from './participant-answer.js';
import { resultsOperations } from './results-routes.js';
import { uploadScriptMediaOperation } from './script-media-routes.js';
import { uploadSessionFileOperation } from './session-file-routes.js';
import { openApiPathsOf, type StreamOperation } from './stream-operation.js';

/**
 * Every operation whose body is not JSON, each declared once (server/http/stream-operation.ts):
 * the routes, the OpenAPI document, the 405 `Allow` header and the README table read them here.
 */
export const STREAM_OPERATIONS: readonly StreamOperation[] = [
  uploadScriptMediaOperation,
  uploadSessionFileOperation,
  answerInterviewOperation,
  ...resultsOperations,
  ...exportOperations,
  invoicePdfOperation,
  eventStreamOperation,
];

export const STREAM_OPENAPI_PATHS = openApiPathsOf(STREAM_OPERATIONS);
