import type { Task } from 'graphile-worker';
import { generateTranscript } from '../../server/domains/sessions/completion-pipeline.js';
import { typedTask } from '../../server/jobs/task-payloads.js';
import type { AppServices } from '../../server/services.js';

/** First step after a session finishes (its body comes with the transcripts issue). */
export function generateTranscriptTask(services: AppServices): Task<'session__generate_transcript'> {
  return typedTask('session__generate_transcript', async ({ sessionId }) => {
    await generateTranscript(services.orm.em.fork(), sessionId);
  });
}
