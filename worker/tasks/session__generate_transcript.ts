import type { Task } from 'graphile-worker';
import { generateTranscript } from '../../server/domains/transcripts/generate-transcript.js';
import { typedTask } from '../../server/jobs/task-payloads.js';
import type { AppServices } from '../../server/services.js';

/** First step after a session finishes: the transcript's analysis, then the insights. */
export function generateTranscriptTask(services: AppServices): Task<'session__generate_transcript'> {
  return typedTask('session__generate_transcript', async ({ sessionId }) => {
    await generateTranscript({ em: services.orm.em.fork(), services }, { sessionId });
  });
}
