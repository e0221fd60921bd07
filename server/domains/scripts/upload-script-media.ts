import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { LockMode } from '@mikro-orm/core';
import { fileTypeFromFile } from 'file-type';
import type { TScriptMedia } from '../../../shared/schemas/scripts.js';
import { ScriptMedia } from '../../entities/index.js';
import { AppError, validationError } from '../../errors.js';
import { newId } from '../../lib/ids.js';
import { sha256OfFile } from '../../lib/sha256-file.js';
import type { CustomerAuth } from '../common/caller.js';
import type { Deps } from '../common/deps.js';
import { assertNotArchived, loadLatestVersion, loadScript } from './load-script.js';
import { toScriptMediaDto } from './script-media-dto.js';

/** Accepted formats, recognised from the file's content (the client's Content-Type is not trusted). */
const ACCEPTED_MEDIA: Record<string, { kind: 'image' | 'audio'; contentType: string }> = {
  'image/png': { kind: 'image', contentType: 'image/png' },
  'image/jpeg': { kind: 'image', contentType: 'image/jpeg' },
  'image/gif': { kind: 'image', contentType: 'image/gif' },
  'image/webp': { kind: 'image', contentType: 'image/webp' },
  'audio/mpeg': { kind: 'audio', contentType: 'audio/mpeg' },
  'audio/wav': { kind: 'audio', contentType: 'audio/wav' },
  'audio/ogg': { kind: 'audio', contentType: 'audio/ogg' },
  'audio/opus': { kind: 'audio', contentType: 'audio/ogg' },
  'audio/mp4': { kind: 'audio', contentType: 'audio/mp4' },
  'audio/x-m4a': { kind: 'audio', contentType: 'audio/mp4' },
  'audio/aac': { kind: 'audio', contentType: 'audio/aac' },
  'audio/flac': { kind: 'audio', contentType: 'audio/flac' },
  // WebM is what browsers record; its signature cannot tell audio-only files apart.
  'video/webm': { kind: 'audio', contentType: 'audio/webm' },
};

export const ACCEPTED_MEDIA_DESCRIPTION = 'images (PNG, JPEG, GIF, WebP) or audio (MP3, WAV, OGG/Opus, M4A/AAC, FLAC, WebM)';

export interface UploadScriptMediaInput {
  scriptId: string;
  questionId?: string | undefined;
  /** Text alternative (checked by the route: trimmed, at most MEDIA_ALT_MAX_LENGTH). */
  alt?: string | undefined;
  originalName: string;
  /** The upload as received, on local disk; the caller removes it afterwards. */
  uploadedFile: string;
}

function sanitizeFilename(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const cleaned = base
    .replace(/[\u0000-\u001f\u007f"]/g, '')
    .trim()
    .slice(0, 200);
  return cleaned || 'file';
}

/**
 * Stores an image or audio file for a script (optionally for one of its questions). The type is
 * recognised from the bytes and the size checked against its kind's limit before anything is
 * stored; a failed insert removes the stored file again.
 */
export async function uploadScriptMedia(
  { em, services }: Pick<Deps, 'em' | 'services'>,
  caller: CustomerAuth,
  input: UploadScriptMediaInput,
): Promise<TScriptMedia> {
  const detected = await fileTypeFromFile(input.uploadedFile);
  const accepted = detected ? ACCEPTED_MEDIA[detected.mime] : undefined;
  if (!accepted) {
    throw validationError([{ path: 'file', message: `must be one of ${ACCEPTED_MEDIA_DESCRIPTION}` }], 'Unsupported media type.');
  }
  const size = (await stat(input.uploadedFile)).size;
  const limit = accepted.kind === 'image' ? services.config.mediaMaxImageBytes : services.config.mediaMaxAudioBytes;
  if (size > limit) {
    throw new AppError('PAYLOAD_TOO_LARGE', `${accepted.kind === 'image' ? 'Images' : 'Audio files'} may be at most ${limit} bytes.`, {
      limitBytes: limit,
      kind: accepted.kind,
    });
  }

  const id = newId('fil');
  const storageKey = `script-media/${caller.organizationId}/${id}`;
  let stored = false;
  try {
    // The script row is share-locked until the record is in, so an archive or delete cannot
    // slip between the check and the insert.
    return await em.transactional(async (tx) => {
      const script = await loadScript(tx, caller, { scriptId: input.scriptId, lockMode: LockMode.PESSIMISTIC_READ });
      assertNotArchived(script);
      if (input.questionId !== undefined) {
        const latest = await loadLatestVersion(tx, script);
        if (!latest.questions.some((question) => question.id === input.questionId)) {
          throw validationError([{ path: 'questionId', message: 'is not a question of the newest script version' }]);
        }
      }
      const sha256 = await sha256OfFile(input.uploadedFile);
      await services.storage.put(storageKey, createReadStream(input.uploadedFile));
      stored = true;
      const media = tx.create(ScriptMedia, {
        id,
        organization: caller.organizationId,
        script,
        questionId: input.questionId ?? null,
        kind: accepted.kind,
        contentType: accepted.contentType,
        filename: sanitizeFilename(input.originalName),
        alt: input.alt ?? null,
        sizeBytes: size,
        sha256,
        storageKey,
      });
      await tx.flush();
      return toScriptMediaDto(media, services.signer);
    });
  } catch (error) {
    if (stored) await services.storage.delete(storageKey);
    throw error;
  }
}
