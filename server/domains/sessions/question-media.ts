import type { EntityManager } from '@mikro-orm/postgresql';
import type { Deps } from '../common/deps.js';
import type { TTurnMedia } from '../../../shared/schemas/sessions.js';
import { questionMediaForDownload, questionMediaRows } from './queries.js';
import type { Session } from '../../entities/index.js';
import type { UrlSigner } from '../../lib/signed-urls.js';

/**
 * How long a question's media link opens. Links are signed again with every turn, so this only
 * has to outlast one question on screen, a pause included; 12 hours covers a participant who
 * leaves the page open, and the link is useless once the session has finished anyway.
 */
export const QUESTION_MEDIA_LINK_SECONDS = 12 * 3600;

/**
 * The script's images and audio for one question, as the participant's turn carries them: each
 * with a `question_media` link bound to this session (`<sessionId>/<mediaId>`), so the page loads
 * them without an API key and a link stops opening when the session is over.
 */
export async function questionMediaOf(
  em: EntityManager,
  signer: UrlSigner,
  session: Pick<Session, 'id' | 'scriptId'> & { organization: { id: string } },
  questionId: string,
  now: Date,
  /** The script's question media when the caller read them already (answerContext), else read here. */
  scriptMedia?: ScriptQuestionMedia[],
): Promise<TTurnMedia[]> {
  const rows = scriptMedia
    ? scriptMedia.filter((media) => media.questionId === questionId)
    : (await questionMediaRows.rows(em, { organizationId: session.organization.id, scriptId: session.scriptId, questionId })).map((row) => ({
        id: row.id,
        questionId,
        kind: row.kind,
        contentType: row.content_type,
        alt: row.alt,
      }));
  return Promise.all(
    rows.map(async (row) => ({
      kind: row.kind as 'image' | 'audio',
      contentType: row.contentType,
      url: (await signer.signFileLink({ fileId: `${session.id}/${row.id}`, purpose: 'question_media' }, QUESTION_MEDIA_LINK_SECONDS, now)).url,
      alt: row.alt,
    })),
  );
}

/** One of a script's images or audio files, with the question it belongs to (the order: upload order). */
export interface ScriptQuestionMedia {
  id: string;
  questionId: string;
  kind: string;
  contentType: string;
  alt: string | null;
}

/**
 * For the signed-link route: the file a `question_media` link opens, or null when the session is
 * finished or gone (unfinished: UNFINISHED_SESSION_STATUSES), or the media is not its script's
 * (or was deleted, or its script was).
 */
export async function findQuestionMediaForDownload(
  { em }: Pick<Deps, 'em'>,
  { subject }: { subject: string },
): Promise<{ storageKey: string; contentType: string; size: number; filename: string } | null> {
  const [sessionId, mediaId, ...rest] = subject.split('/');
  if (!sessionId || !mediaId || rest.length > 0) return null;
  const row = await questionMediaForDownload.first(em, { sessionId, mediaId });
  return row ? { storageKey: row.storage_key, contentType: row.content_type, size: Number(row.size_bytes), filename: row.filename } : null;
}
