import type { Task } from 'graphile-worker';
import { generateInsights } from '../../server/domains/insights/generate-insights.js';
import { typedTask } from '../../server/jobs/task-payloads.js';
import type { AppServices } from '../../server/services.js';

/** Second step after a session finishes: insights from the transcript, then the session's files. */
export function generateInsightsTask(services: AppServices): Task<'session__generate_insights'> {
  return typedTask('session__generate_insights', async ({ sessionId }) => {
    await generateInsights({ em: services.orm.em.fork(), services }, { sessionId });
  });
}
