import { Readable } from 'node:stream';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ZipFile } from 'yazl';
import type { FileStorage } from '../../storage/file-storage.js';
import type { ExportScope } from './export-scope.js';
import { exportedAudio } from './exported-sessions.js';
import { transcriptsCsv } from './transcripts-csv.js';
import { transcriptsJson } from './transcripts-json.js';

/**
 * The spec's ZIP: for each campaign a folder named by its slug with `transcripts.json` (or
 * `.csv`) and `audio/<sessionId>.<ext>`, one recording per session, and `manifest.json` at the
 * root (written last, once every entry is known). Every entry is opened only when the ZIP
 * reaches it, so memory stays flat in the number of sessions; recordings are stored, not
 * recompressed.
 */
export async function transcriptsZip(
  em: EntityManager,
  storage: FileStorage,
  scope: ExportScope,
  options: { format: 'json' | 'csv'; redactPii: boolean },
): Promise<Readable> {
  const zip = new ZipFile();
  const output = zip.outputStream as Readable;
  // An entry that cannot be read (a recording gone, the database lost mid-way) ends the download
  // (the client sees it cut short), never the process: yazl does not listen to its entries' errors.
  const fail = (error: Error) => output.destroy(error);
  zip.on('error', fail);
  const guarded = (stream: Readable) => stream.on('error', fail);
  const campaignIds = scope.campaigns.map((campaign) => campaign.id);
  const audio = await exportedAudio(em, campaignIds);
  const sessionsOf = new Map<string, string[]>();
  const sessionRows = await em.execute<{ id: string; campaign_id: string }[]>(
    `select id, campaign_id from sessions where campaign_id = any(array[?]::text[]) and status in ('completed', 'abandoned') order by created_at, id`,
    [campaignIds],
  );
  for (const row of sessionRows) sessionsOf.set(row.campaign_id, [...(sessionsOf.get(row.campaign_id) ?? []), row.id]);

  const manifest = {
    exportedAt: new Date().toISOString(),
    scope: { type: scope.type, id: scope.id },
    format: options.format,
    redacted: options.redactPii,
    campaigns: [] as { id: string; name: string; slug: string; transcripts: string; sessions: number }[],
    sessions: [] as { id: string; campaignId: string; audio: string | null }[],
  };
  const mtime = new Date();
  for (const campaign of scope.campaigns) {
    const transcripts = `${campaign.slug}/transcripts.${options.format}`;
    zip.addReadStreamLazy(transcripts, { mtime }, (done) => {
      const stream =
        options.format === 'json'
          ? Readable.from(transcriptsJson(em, scope, [campaign], { redactPii: options.redactPii }))
          : transcriptsCsv(em, [campaign], { redactPii: options.redactPii });
      done(null, guarded(stream));
    });
    const sessionIds = sessionsOf.get(campaign.id) ?? [];
    manifest.campaigns.push({ id: campaign.id, name: campaign.name, slug: campaign.slug, transcripts, sessions: sessionIds.length });
    for (const sessionId of sessionIds) {
      const recording = audio.get(sessionId) ?? null;
      const entry = recording ? `${campaign.slug}/audio/${sessionId}.${recording.extension}` : null;
      manifest.sessions.push({ id: sessionId, campaignId: campaign.id, audio: entry });
      if (!recording || !entry) continue;
      zip.addReadStreamLazy(entry, { mtime, compress: false }, (done) => {
        storage.open(recording.storageKey).then((stream) => done(null, guarded(stream)), (error: Error) => done(error, undefined as never));
      });
    }
  }
  zip.addBuffer(Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`), 'manifest.json', { mtime });
  zip.end();
  return output;
}
