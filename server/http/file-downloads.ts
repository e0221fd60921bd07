import { type NextFunction, type Request, type Response, Router } from 'express';
import { findScriptMediaForDownload } from '../domains/scripts/find-script-media-for-download.js';
import { findSessionFileForDownload } from '../domains/sessions/find-session-file-for-download.js';
import { getTranscriptForLink } from '../domains/transcripts/get-transcript.js';
import { AppError } from '../errors.js';
import type { SignedFileClaims } from '../lib/signed-urls.js';
import type { AppServices } from '../services.js';
import { FileNotFoundError } from '../storage/file-storage.js';

interface Downloadable {
  storageKey: string;
  contentType: string;
  size: number;
  filename: string;
  /** Media that plays in the page (images, audio) opens inline; anything else is saved, never rendered. */
  inline: boolean;
}

async function findDownloadable(services: AppServices, claims: SignedFileClaims): Promise<Downloadable | null> {
  const em = services.orm.em.fork();
  if (claims.purpose === 'script_media') {
    const media = await findScriptMediaForDownload(em, claims.fileId);
    return media && { storageKey: media.storageKey, contentType: media.contentType, size: media.sizeBytes, filename: media.filename, inline: true };
  }
  if (claims.purpose !== 'session_file') return null;
  const file = await findSessionFileForDownload(em, claims.fileId);
  if (!file) return null;
  // Answer audio plays in the page; anything uploaded is saved, never rendered, whatever its type.
  const inline = file.kind === 'audio' || file.kind === 'merged_audio';
  return { storageKey: file.storageKey, contentType: file.contentType, size: file.sizeBytes, filename: file.name, inline };
}

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
      if (claims?.purpose === 'session_transcript') {
        // A webhook's transcript_url: the session's transcript as the JSON endpoint answers it.
        res.setHeader('Cache-Control', 'private, max-age=300');
        res.json(await getTranscriptForLink(services.orm.em.fork(), claims.fileId));
        return;
      }
      const file = claims ? await findDownloadable(services, claims) : null;
      if (!file) throw new AppError('RESOURCE_NOT_FOUND', 'This link is invalid or has expired.');
      let stream;
      try {
        stream = await services.storage.open(file.storageKey);
      } catch (error) {
        if (error instanceof FileNotFoundError) throw new AppError('RESOURCE_NOT_FOUND', 'The file is no longer available.');
        throw error;
      }
      res.setHeader('Content-Type', file.contentType);
      res.setHeader('Content-Length', String(file.size));
      res.setHeader('Content-Disposition', `${file.inline ? 'inline' : 'attachment'}; filename="${file.filename.replace(/[^\x20-\x7e]|"/g, '_')}"`);
      res.setHeader('X-Content-Type-Options', 'nosniff');
      res.setHeader('Cache-Control', 'private, max-age=300');
      stream.on('error', next);
      stream.pipe(res);
    } catch (error) {
      next(error);
    }
  });
  return routes;
}
