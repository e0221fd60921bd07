import type { TSessionFile } from '../../../shared/schemas/sessions.js';
import type { SessionFile } from '../../entities/index.js';
import type { UrlSigner } from '../../lib/signed-urls.js';

/** Session file links (audio above all) are valid one hour, as the spec says for the dashboard's audio links. */
export const SESSION_FILE_LINK_TTL_SECONDS = 3600;

export async function toSessionFileDto(file: SessionFile, signer: UrlSigner): Promise<TSessionFile> {
  const link = await signer.signFileLink({ fileId: file.id, purpose: 'session_file' }, SESSION_FILE_LINK_TTL_SECONDS);
  return {
    id: file.id,
    sessionId: file.session.id,
    kind: file.kind,
    name: file.name,
    contentType: file.contentType,
    size: file.sizeBytes,
    durationSeconds: file.durationSeconds ?? null,
    url: link.url,
    urlExpiresAt: link.expiresAt.toISOString(),
    createdAt: file.createdAt.toISOString(),
  };
}
