import type { Task } from 'graphile-worker';
import type { AppServices } from '../../server/services.js';
import { pruneTurnAudio } from '../../server/speech/prune-turn-audio.js';

const DAY_MS = 24 * 3600 * 1000;

/** Cron (daily): spoken turns not used for TTS_CACHE_MAX_AGE_DAYS are deleted (0 keeps them all). */
export function pruneTtsCacheTask(services: AppServices): Task {
  return async () => {
    const days = services.config.tts.cacheMaxAgeDays;
    if (days === 0) return;
    const { checked, deleted } = await pruneTurnAudio(services.storage, new Date(Date.now() - days * DAY_MS));
    if (deleted > 0) services.logger.info({ checked, deleted, days }, 'deleted spoken turns not used recently');
  };
}
