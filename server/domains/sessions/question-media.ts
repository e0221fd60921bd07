import type { EntityManager } from '@mikro-orm/postgresql';
import type { TTurnMedia } from '../../../shared/schemas/sessions.js';
import { queryRows, sql } from '../../db/sql.js';
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
): Promise<TTurnMedia[]> {
  const rows = await queryRows<{ id: string; kind: 'image' | 'audio'; content_type: string; alt: string | null }>(
    em,
    sql`select m.id, m.kind, m.content_type, m.alt from script_media m
        where m.script_id = ${session.scriptId} and m.organization_id = ${session.organization.id} and m.question_id = ${questionId}
        order by m.created_at, m.id`,
  );
  return Promise.all(
    rows.map(async (row) => ({
      kind: row.kind,
      contentType: row.content_type,
      url: (await signer.signFileLink({ fileId: `${session.id}/${row.id}`, purpose: 'question_media' }, QUESTION_MEDIA_LINK_SECONDS, now)).url,
      alt: row.alt,
    })),
  );
}

/**
 * For the signed-link route: the file a `question_media` link opens, or null when the session is
 * finished or gone (unfinished: UNFINISHED_SESSION_STATUSES), or the media is not its script's
 * (or was deleted, or its script was).
 */
export async function findQuestionMediaForDownload(
  em: EntityManager,
  subject: string,
): Promise<{ storageKey: string; contentType: string; size: number; filename: string } | null> {
  const [sessionId, mediaId, ...rest] = subject.split('/');
  if (!sessionId || !mediaId || rest.length > 0) return null;
  const [row] = await queryRows<{ storage_key: string; content_type: string; size_bytes: string | number; filename: string }>(
    em,
    sql`select m.storage_key, m.content_type, m.size_bytes, m.filename
        from sessions s
        join script_media m on m.script_id = s.script_id and m.organization_id = s.organization_id
        join scripts sc on sc.id = m.script_id and sc.deleted_at is null
        where s.id = ${sessionId} and m.id = ${mediaId} and s.status in ('created', 'in_progress', 'paused')`,
  );
  return row ? { storageKey: row.storage_key, contentType: row.content_type, size: Number(row.size_bytes), filename: row.filename } : null;
}
