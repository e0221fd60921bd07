import { Readable } from 'node:stream';
import type { TPiiKind } from '../../../shared/schemas/pii.js';
import { ZipFile } from 'yazl';
import { audioExtensionOf } from '../../speech/audio-probe.js';
import type { Deps } from '../common/deps.js';
import type { ExportScope } from './export-scope.js';
import type { ZipSession } from './exported-sessions.js';
import { transcriptsCsv } from './transcripts-csv.js';
import { transcriptsJson } from './transcripts-json.js';

/**
 * The spec's ZIP: for each campaign a folder named by its slug with `transcripts.json` (or
 * `.csv`) and `audio/<sessionId>.<ext>`, one recording per session, and `manifest.json` at the
 * root (written last, once every entry is known). `sessions` was read once by the caller (see
 * zipSessions), so the manifest, the audio and the transcripts hold the same sessions. Every entry
 * is opened only when the ZIP reaches it, so memory stays flat in the number of sessions;
 * recordings are stored, not recompressed. Recordings are never redacted.
 */
export function transcriptsZip(
  { em, services }: Pick<Deps, 'em' | 'services'>,
  { scope, sessions, ...options }: { scope: ExportScope; sessions: readonly ZipSession[]; format: 'json' | 'csv'; redactKinds: readonly TPiiKind[] },
): Readable {
  const { storage } = services;
  const zip = new ZipFile();
  const output = zip.outputStream as Readable;
  // Entries being read: a download given up (or failed) must close them, or each abandoned
  // download would keep a file open.
  const open = new Set<Readable>();
  // An entry that cannot be read (a recording gone, the database lost mid-way) ends the download
  // (the client sees it cut short), never the process: yazl does not listen to its entries' errors.
  const fail = (error: Error) => output.destroy(error);
  zip.on('error', fail);
  output.once('close', () => {
    for (const stream of open) stream.destroy();
  });
  const track = (stream: Readable) => {
    open.add(stream);
    stream.on('error', fail);
    stream.once('close', () => open.delete(stream));
    return stream;
  };

  const manifest = {
    exportedAt: new Date().toISOString(),
    scope: { type: scope.type, id: scope.id },
    format: options.format,
    redacted: options.redactKinds.length > 0,
    audioRedacted: false,
    campaigns: [] as { id: string; name: string; slug: string; transcripts: string; sessions: number }[],
    sessions: [] as { id: string; campaignId: string; audio: string | null }[],
  };
  const mtime = new Date();
  for (const campaign of scope.campaigns) {
    const listed = sessions.filter((session) => session.campaignId === campaign.id);
    const sessionIds = listed.map((session) => session.id);
    const transcripts = `${campaign.slug}/transcripts.${options.format}`;
    zip.addReadStreamLazy(transcripts, { mtime }, (done) => {
      const entry = { campaigns: [campaign], redactKinds: options.redactKinds, sessionIds };
      const stream = options.format === 'json' ? Readable.from(transcriptsJson({ em }, { scope, ...entry })) : transcriptsCsv({ em }, entry);
      done(null, track(stream));
    });
    manifest.campaigns.push({ id: campaign.id, name: campaign.name, slug: campaign.slug, transcripts, sessions: listed.length });
    for (const session of listed) {
      const { recording } = session;
      const entry = recording ? `${campaign.slug}/audio/${session.id}.${audioExtensionOf(recording.contentType)}` : null;
      manifest.sessions.push({ id: session.id, campaignId: campaign.id, audio: entry });
      if (!recording || !entry) continue;
      zip.addReadStreamLazy(entry, { mtime, compress: false }, (done) => {
        storage.open(recording.storageKey).then(
          (stream) => done(null, track(stream)),
          (error: Error) => done(error, undefined as never),
        );
      });
    }
  }
  zip.addBuffer(Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`), 'manifest.json', { mtime });
  zip.end();
  return output;
}
