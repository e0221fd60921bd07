import type { Readable } from 'node:stream';
import { requestedPiiKinds } from '../../shared/schemas/pii.js';
import { pipeline } from 'node:stream/promises';
import type { Response } from 'express';
import { z } from 'zod';
import { ZExportQuery, ZIP_EXPORT_MAX_SESSIONS } from '../../shared/schemas/transcripts.js';
import { exportTranscripts } from '../domains/exports/export-transcripts.js';
import type { Logger } from '../logger.js';
import { defineStreamOperation, type PathParams } from './stream-operation.js';

/**
 * Streams an export. A failure before the first byte is answered like any error (the envelope);
 * after it, it can only cut the download short (and is logged).
 */
async function send(res: Response, logger: Logger, body: Readable, headers: { contentType: string; filename: string }): Promise<void> {
  res.setHeader('Content-Type', headers.contentType);
  res.setHeader('Content-Disposition', `attachment; filename="${headers.filename}"`);
  try {
    await pipeline(body, res);
  } catch (error) {
    if (!res.headersSent) {
      res.removeHeader('Content-Disposition');
      throw error;
    }
    if (!res.destroyed) res.destroy();
    // A client that went away is not the service's fault.
    if ((error as NodeJS.ErrnoException).code !== 'ERR_STREAM_PREMATURE_CLOSE') logger.error({ err: error }, 'export failed mid-stream');
  }
}

/**
 * `GET /api/campaigns/{campaignId}/transcripts` and `GET /api/projects/{projectId}/transcripts`:
 * all finished sessions as one JSON document, a flattened CSV, or (`include_audio=true`) a ZIP
 * with one recording per session. Everything is streamed from the database in batches.
 */
const exportOperation = <const Path extends string>(
  path: Path,
  operationId: string,
  what: string,
  target: (path: Record<PathParams<Path>, string>) => { campaignId: string } | { projectId: string },
) =>
  defineStreamOperation({
    method: 'GET',
    path,
    permission: 'sessions:read',
    query: ZExportQuery,
    openapi: {
      operationId,
      tags: ['Exports'],
      summary: `Export the transcripts of ${what}`,
      description: `Every finished session (completed or abandoned) of ${what}: \`format=json\` (default) is one JSON document \`{exportedAt, scope, redacted, campaigns, sessions: [{…session, transcriptStatus, transcript}]}\`; \`format=csv\` is RFC 4180 CSV with one row per utterance; \`include_audio=true\` is a ZIP: \`manifest.json\`, and per campaign a folder named by its slug with \`transcripts.json\` (or \`.csv\`) and \`audio/<sessionId>.<ext>\`, at most ${ZIP_EXPORT_MAX_SESSIONS} sessions (422 \`EXPORT_TOO_LARGE\` above). Streamed: a failure after the first byte cuts the download short.`,
      responses: {
        '200': {
          description: 'The export',
          content: {
            'application/json': { schema: z.object({}).passthrough().meta({ description: 'See the description.' }) },
            'text/csv': { schema: z.string() },
            'application/zip': { schema: z.string().meta({ format: 'binary' }) },
          },
        },
      },
      errors: ['EXPORT_TOO_LARGE'],
    },
    handler:
      (services) =>
      async ({ res, caller, path: pathValues, query }) => {
        const deps = { em: services.orm.em.fork(), services };
        const input = { ...target(pathValues), format: query.format, includeAudio: query.include_audio, redactKinds: requestedPiiKinds(query) };
        const { body, ...headers } = await exportTranscripts(deps, caller, input);
        await send(res, services.logger, body, headers);
      },
  });

export const exportOperations = [
  exportOperation('/api/campaigns/{campaignId}/transcripts', 'exports-campaignTranscripts', 'a campaign', ({ campaignId }) => ({ campaignId })),
  exportOperation('/api/projects/{projectId}/transcripts', 'exports-projectTranscripts', 'every campaign of a project', ({ projectId }) => ({ projectId })),
];
