import { Readable } from 'node:stream';
import type { TPiiKind } from '../../../shared/schemas/pii.js';
import type { CustomerAuth } from '../common/caller.js';
import type { Deps } from '../common/deps.js';
import { type ExportTarget, resolveExportScope } from './export-scope.js';
import { zipSessions } from './exported-sessions.js';
import { transcriptsCsv } from './transcripts-csv.js';
import { transcriptsJson } from './transcripts-json.js';
import { transcriptsZip } from './transcripts-zip.js';

export type ExportTranscriptsInput = ExportTarget & {
  format: 'json' | 'csv';
  /** A ZIP with one recording per session (at most ZIP_EXPORT_MAX_SESSIONS). */
  includeAudio: boolean;
  redactKinds: readonly TPiiKind[];
};

/** An export ready to stream: its body and how the download is named and typed. */
export interface TranscriptsExport {
  body: Readable;
  contentType: string;
  filename: string;
}

/**
 * The transcripts of a campaign or of every campaign of a project, as one JSON document, a CSV or
 * a ZIP with audio. Everything that can refuse (404, EXPORT_TOO_LARGE) happens before this
 * returns; the body is read only as it is streamed.
 */
export async function exportTranscripts(
  deps: Pick<Deps, 'em' | 'services'>,
  caller: CustomerAuth,
  { format, includeAudio, redactKinds, ...target }: ExportTranscriptsInput,
): Promise<TranscriptsExport> {
  const scope = await resolveExportScope(deps, caller, target);
  const name = `${scope.slug}-transcripts`;
  if (includeAudio) {
    const sessions = await zipSessions(deps, { campaignIds: scope.campaigns.map((campaign) => campaign.id) });
    return { body: transcriptsZip(deps, { scope, sessions, format, redactKinds }), contentType: 'application/zip', filename: `${name}.zip` };
  }
  if (format === 'csv') {
    return { body: transcriptsCsv(deps, { campaigns: scope.campaigns, redactKinds }), contentType: 'text/csv; charset=utf-8', filename: `${name}.csv` };
  }
  return {
    body: Readable.from(transcriptsJson(deps, { scope, campaigns: scope.campaigns, redactKinds })),
    contentType: 'application/json; charset=utf-8',
    filename: `${name}.json`,
  };
}
