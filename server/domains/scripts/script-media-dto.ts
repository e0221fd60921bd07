import type { TScriptMedia } from '../../../shared/schemas/scripts.js';
import type { ScriptMedia } from '../../entities/index.js';
import type { UrlSigner } from '../../lib/signed-urls.js';

/** Signed media links stay valid this long, like the dashboard's audio links. */
export const MEDIA_LINK_TTL_SECONDS = 3600;

export async function toScriptMediaDto(media: ScriptMedia, signer: UrlSigner): Promise<TScriptMedia> {
  const link = await signer.signFileLink({ fileId: media.id, purpose: 'script_media' }, MEDIA_LINK_TTL_SECONDS);
  return {
    id: media.id,
    scriptId: media.script.id,
    questionId: media.questionId ?? null,
    kind: media.kind,
    contentType: media.contentType,
    filename: media.filename,
    alt: media.alt ?? null,
    size: media.sizeBytes,
    sha256: media.sha256,
    url: link.url,
    urlExpiresAt: link.expiresAt.toISOString(),
    createdAt: media.createdAt.toISOString(),
  };
}
