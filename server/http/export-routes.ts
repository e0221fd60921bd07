import { Readable } from 'node:stream';
import { requestedPiiKinds } from '../../shared/schemas/pii.js';
import { pipeline } from 'node:stream/promises';
import type { Response } from 'express';
import { z } from 'zod';
import { ZExportQuery, ZIP_EXPORT_MAX_SESSIONS } from '../../shared/schemas/transcripts.js';
import { resolveExportScope } from '../domains/exports/export-scope.js';
import { transcriptsCsv } from '../domains/exports/transcripts-csv.js';
import { transcriptsJson } from '../domains/exports/transcripts-json.js';
import { zipSessions } from '../domains/exports/exported-sessions.js';
import { transcriptsZip } from '../domains/exports/transcripts-zip.js';
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
        const em = services.orm.em.fork();
        const scope = await resolveExportScope(em, caller.organizationId, target(pathValues));
        const options = { redactKinds: requestedPiiKinds(query) };
        const name = `${scope.slug}-transcripts`;
        if (query.include_audio) {
          const sessions = await zipSessions(
            em,
            scope.campaigns.map((campaign) => campaign.id),
          );
          const zip = transcriptsZip(em, services.storage, scope, sessions, { format: query.format, redactKinds: options.redactKinds });
          await send(res, services.logger, zip, { contentType: 'application/zip', filename: `${name}.zip` });
        } else if (query.format === 'csv') {
          await send(res, services.logger, transcriptsCsv(em, scope.campaigns, options), { contentType: 'text/csv; charset=utf-8', filename: `${name}.csv` });
        } else {
          await send(res, services.logger, Readable.from(transcriptsJson(em, scope, scope.campaigns, options)), {
            contentType: 'application/json; charset=utf-8',
            filename: `${name}.json`,
          });
        }
      },
  });

export const exportOperations = [
  exportOperation('/api/campaigns/{campaignId}/transcripts', 'exports-campaignTranscripts', 'a campaign', ({ campaignId }) => ({ campaignId })),
  exportOperation('/api/projects/{projectId}/transcripts', 'exports-projectTranscripts', 'every campaign of a project', ({ projectId }) => ({ projectId })),
];
