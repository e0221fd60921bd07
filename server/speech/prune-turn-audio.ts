import type { FileStorage } from '../storage/file-storage.js';
import { TURN_AUDIO_PREFIX } from './turn-audio.js';

/**
 * Deletes the spoken turns (`tts-cache/`) last used before `unusedSince`: a cached turn is marked
 * used when it is stored and whenever it is served again (TurnAudio), so what the prune takes is
 * audio nobody asked for since. A turn asked for after it was deleted is simply spoken again.
 */
export async function pruneTurnAudio(storage: FileStorage, unusedSince: Date): Promise<{ checked: number; deleted: number }> {
  let checked = 0;
  let deleted = 0;
  for await (const file of storage.list(TURN_AUDIO_PREFIX)) {
    checked++;
    if (file.modifiedAt >= unusedSince) continue;
    await storage.delete(file.key);
    deleted++;
  }
  return { checked, deleted };
}
