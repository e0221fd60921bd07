import { pipeline as connect, type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { EntityManager } from '@mikro-orm/postgresql';
import { type NextFunction, type Request, type Response, Router } from 'express';
import { findAnonymizedExportForDownload } from '../domains/anonymized-exports/find-anonymized-export-for-download.js';
import { findScriptMediaForDownload } from '../domains/scripts/find-script-media-for-download.js';
import { findSessionFileForDownload } from '../domains/sessions/find-session-file-for-download.js';
import { findQuestionMediaForDownload } from '../domains/sessions/question-media.js';
import { findTurnForSpeech, recordSynthesisTime } from '../domains/sessions/turn-audio-link.js';
import { elapsedMs } from '../domains/sessions/turn-timing.js';
import { SpeechSynthesisError } from '../speech/speech-synthesizer.js';
import { TRANSCRIPT_MEDIA_TYPES } from '../domains/transcripts/format-transcript.js';
import { getTranscriptForLink } from '../domains/transcripts/get-transcript.js';
import { Invoice } from '../entities/invoice.js';
import { Session } from '../entities/session.js';
import { AppError } from '../errors.js';
import type { SignedFilePurpose } from '../lib/signed-urls.js';
import type { AppServices } from '../services.js';
import type { TSessionFileKind } from '../../shared/schemas/sessions.js';
import { ZPdfQuery } from '../../shared/schemas/transcripts.js';
import { invoiceDocument } from './invoice-routes.js';
import { sessionReportPdf } from './results-routes.js';
import { type ByteRange, FileNotFoundError } from '../storage/file-storage.js';
import { sendPdf } from './send-pdf.js';

/** What a signed link opens: a stored file streamed as it is, or a JSON document made for the link. */
type Download =
  | {
      kind: 'file';
      storageKey: string;
      contentType: string;
      size: number;
      filename: string;
      /** Media that plays in the page (images, audio) opens inline; anything else is saved, never rendered. */
      inline: boolean;
    }
  | { kind: 'json'; body: unknown }
  /** Made for the link: a PDF streamed as it is drawn, or text. Always saved, never rendered. */
  | { kind: 'made'; contentType: string; filename: string; body: Buffer | PDFKit.PDFDocument | string }
  /** An AI turn spoken: from the cache, or streamed while the synthesizer makes it. */
  | { kind: 'speech'; text: string; voice: string | null; language: string; sessionId: string; utteranceId: string };

/**
 * The one byte range a `Range` header asks for (`bytes=500-999`, `bytes=500-`, `bytes=-500`), as
 * audio players seek: undefined for none (or several ranges, or another unit: the whole file is
 * a valid answer to those), 'unsatisfiable' for a range that starts past the end (416).
 */
export function requestedRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | undefined {
  const match = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!match || (match[1] === '' && match[2] === '')) return undefined;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (start >= size) return 'unsatisfiable';
  return end < start ? undefined : { start, end };
}

/** Session files made by the service that are audio (an upload is never rendered, whatever its type). */
const PLAYABLE_KINDS: ReadonlySet<TSessionFileKind> = new Set(['audio', 'merged_audio', 'participant_audio', 'ai_audio']);

/** One way to open each purpose a link can carry: a link made for one never opens another. */
const DOWNLOADS: Record<SignedFilePurpose, (em: EntityManager, subject: string, services: AppServices) => Promise<Download | null>> = {
  script_media: async (em, mediaId) => {
    const media = await findScriptMediaForDownload({ em }, { mediaId });
    return (
      media && { kind: 'file', storageKey: media.storageKey, contentType: media.contentType, size: media.sizeBytes, filename: media.filename, inline: true }
    );
  },
  session_file: async (em, fileId) => {
    const file = await findSessionFileForDownload({ em }, { fileId });
    // Answer audio and the session's recordings play in the page; anything uploaded is saved, never rendered, whatever its type.
    return (
      file && {
        kind: 'file',
        storageKey: file.storageKey,
        contentType: file.contentType,
        size: file.sizeBytes,
        filename: file.name,
        inline: PLAYABLE_KINDS.has(file.kind),
      }
    );
  },
  // A webhook's transcript_url: the session's transcript as the JSON endpoint answers it.
  session_transcript: async (em, sessionId) => ({ kind: 'json', body: await getTranscriptForLink({ em }, { sessionId }) }),
  // anonymizedExports.create's file, while it has not expired.
  anonymized_export: async (em, exportId) => {
    const file = await findAnonymizedExportForDownload({ em }, { exportId });
    return file && { kind: 'file', storageKey: file.storageKey, contentType: file.contentType, size: file.size, filename: file.filename, inline: false };
  },
  // The dashboard's downloads (workspace.sessionDownload, workspace.invoiceDownload), which check
  // the caller's organization and permission before signing.
  session_transcript_text: async (em, sessionId) => {
    const media = TRANSCRIPT_MEDIA_TYPES.text;
    return {
      kind: 'made',
      contentType: media.contentType,
      filename: `transcript-${sessionId}.${media.extension}`,
      body: media.render(await getTranscriptForLink({ em }, { sessionId })),
    };
  },
  session_report_pdf: async (em, sessionId, services) => {
    const session = await em.findOne(Session, { id: sessionId }, { fields: ['organization'] });
    if (!session) return null;
    const pdf = await sessionReportPdf(services, em, session.organization.id, sessionId, ZPdfQuery.parse({}));
    return { kind: 'made', contentType: 'application/pdf', filename: `interview-${sessionId}.pdf`, body: pdf };
  },
  // A turn's media (its question's images and audio), while the session is unfinished.
  question_media: async (em, subject) => {
    const media = await findQuestionMediaForDownload({ em }, { subject });
    return media && { kind: 'file', ...media, inline: true };
  },
  // A turn's audioUrl (the participant API's start and answer responses).
  turn_audio: async (em, subject) => {
    const turn = await findTurnForSpeech({ em }, { subject });
    return turn && { kind: 'speech', ...turn };
  },
  invoice_pdf: async (em, invoiceId, services) => {
    const invoice = await em.findOne(Invoice, invoiceId, { populate: ['organization'] });
    return invoice && { kind: 'made', contentType: 'application/pdf', filename: `${invoice.number}.pdf`, body: invoiceDocument(services, invoice) };
  },
};

/**
 * `GET /files/{token}`: the signed download links of script media and session files, and the
 * transcript links webhooks carry. The link is the credential (a JWS naming the file and what it
 * is, valid for a fixed time), so browsers, audio players and webhook receivers fetch without an
 * API key.
 */
export function fileDownloadRoutes(services: AppServices): Router {
  const routes = Router({ caseSensitive: true, strict: true });
  routes.get('/files/:token', async (req: Request, res: Response, next: NextFunction) => {
    try {
      res.locals.route = '/files/{token}';
      const claims = await services.signer.verifyFileToken(String(req.params.token));
      const file = claims ? await DOWNLOADS[claims.purpose](services.orm.em.fork(), claims.fileId, services) : null;
      if (!file) throw new AppError('RESOURCE_NOT_FOUND', 'This link is invalid or has expired.');
      // Only answers that worked may be kept (set here, not before): a 404 must not outlive its cause.
      const cache = 'private, max-age=300';
      if (file.kind === 'json') {
        res.setHeader('Cache-Control', cache);
        res.json(file.body);
        return;
      }
      if (file.kind === 'speech') {
        await sendSpeech(req, res, services, file);
        return;
      }
      if (file.kind === 'made') {
        res.setHeader('Cache-Control', cache);
        res.setHeader('X-Content-Type-Options', 'nosniff');
        if (typeof file.body !== 'string') {
          sendPdf(res, file.filename, file.body);
          return;
        }
        res.setHeader('Content-Type', file.contentType);
        res.setHeader('Content-Disposition', `attachment; filename="${file.filename}"`);
        res.send(file.body);
        return;
      }
      const range = requestedRange(req.headers.range, file.size);
      res.setHeader('Accept-Ranges', 'bytes');
      if (range === 'unsatisfiable') {
        res.setHeader('Content-Range', `bytes */${file.size}`);
        res.status(416).end();
        return;
      }
      let stream;
      try {
        stream = await services.storage.open(file.storageKey, range);
      } catch (error) {
        if (error instanceof FileNotFoundError) throw new AppError('RESOURCE_NOT_FOUND', 'The file is no longer available.');
        throw error;
      }
      res.setHeader('Cache-Control', cache);
      res.setHeader('Content-Type', file.contentType);
      res.setHeader('Content-Disposition', `${file.inline ? 'inline' : 'attachment'}; filename="${file.filename.replace(/[^\x20-\x7e]|"/g, '_')}"`);
      res.setHeader('X-Content-Type-Options', 'nosniff');
      if (range) {
        res.status(206);
        res.setHeader('Content-Range', `bytes ${range.start}-${range.end}/${file.size}`);
        res.setHeader('Content-Length', String(range.end - range.start + 1));
      } else {
        res.setHeader('Content-Length', String(file.size));
      }
      await sendStream(req, res, stream, services, { failedPartWay: 'download failed part-way', failedBeforeSending: (error) => error });
    } catch (error) {
      next(error);
    }
  });
  return routes;
}

/**
 * A spoken turn: chunked Ogg Opus (or MP3) while the synthesizer still writes it, so the player
 * starts before the sentence is finished; the same bytes are cached for the next request. No
 * ranges: the length is not known while it is made.
 */
async function sendSpeech(req: Request, res: Response, services: AppServices, turn: Extract<Download, { kind: 'speech' }>): Promise<void> {
  const turnAudio = services.turnAudio;
  const synthesizer = turnAudio?.synthesizer;
  // Configured away since the link was made, or a voice it does not have: the page speaks the text itself.
  if (!turnAudio || !synthesizer || (turn.voice && !synthesizer.voices.includes(turn.voice))) {
    throw new AppError('RESOURCE_NOT_FOUND', 'This turn has no spoken form on this server.');
  }
  let stream;
  const asked = performance.now();
  try {
    ({ stream } = await turnAudio.open({ text: turn.text, voice: turn.voice ?? synthesizer.defaultVoice, language: turn.language }));
  } catch (error) {
    if (!(error instanceof SpeechSynthesisError)) throw error;
    services.logger.warn({ err: error, reason: error.reason }, 'text-to-speech failed');
    throw new AppError(
      'SERVICE_UNAVAILABLE',
      'The spoken form of this turn cannot be made right now; the text is in the response.',
      { reason: error.reason },
      { 'Retry-After': '5' },
    );
  }
  res.setHeader('Cache-Control', 'private, max-age=3600');
  res.setHeader('Content-Type', turnAudio.contentType);
  res.setHeader('Content-Disposition', `inline; filename="turn.${turnAudio.contentType === 'audio/mpeg' ? 'mp3' : 'ogg'}"`);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Accept-Ranges', 'none');
  const timed = onFirstByte(stream, () => {
    recordSynthesisTime({ em: services.orm.em.fork() }, { sessionId: turn.sessionId, utteranceId: turn.utteranceId, synthesisMs: elapsedMs(asked) }).catch(
      (error: unknown) => services.logger.warn({ err: error, utteranceId: turn.utteranceId }, 'synthesis time not recorded'),
    );
  });
  await sendStream(req, res, timed, services, {
    failedPartWay: 'spoken turn failed part-way',
    failedBeforeSending: () =>
      new AppError('SERVICE_UNAVAILABLE', 'The spoken form of this turn cannot be made right now; the text is in the response.', {}, { 'Retry-After': '5' }),
  });
}

/**
 * The same bytes, calling `first` when the first of them passes. Connected with `pipeline`, so an
 * error of the source reaches the reader and a reader that goes away (or a HEAD, which reads
 * nothing) closes the source.
 */
function onFirstByte(source: Readable, first: () => void): Readable {
  let seen = false;
  const tap = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      if (!seen && chunk.length > 0) {
        seen = true;
        first();
      }
      done(null, chunk);
    },
  });
  connect(source, tap, () => undefined);
  return tap;
}

/**
 * Sends an opened stream whose headers are set. HEAD: opened only to answer as GET would (404 for
 * a file gone from storage), then closed unread. `pipeline`, not `pipe`: a client that goes away
 * (audio players abort ranged requests all the time) must close the source too, or each abandoned
 * download holds an S3 connection, a file descriptor or a synthesizer. A failure before anything
 * was sent becomes an error answer; after, the response can only be cut, so the client sees it
 * incomplete.
 */
async function sendStream(
  req: Request,
  res: Response,
  stream: Readable,
  services: AppServices,
  on: { failedPartWay: string; failedBeforeSending: (error: NodeJS.ErrnoException) => Error },
): Promise<void> {
  if (req.method === 'HEAD') {
    stream.destroy();
    res.end();
    return;
  }
  await pipeline(stream, res).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ERR_STREAM_PREMATURE_CLOSE' || res.destroyed) return;
    if (!res.headersSent) throw on.failedBeforeSending(error);
    services.logger.warn({ err: error, route: '/files/{token}' }, on.failedPartWay);
    res.destroy(error);
  });
}
