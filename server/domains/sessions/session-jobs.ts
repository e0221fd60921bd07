import type { JobSpec } from '../../jobs/add-jobs.js';

// A session's scheduled jobs re-arm themselves: each checks the session when it runs and, when
// its moment has not come yet (activity since, a pause), adds itself again for the new moment.
// So heartbeats and answers only write `lastActivityAt`, never the job queue.

/** Ends the session as timed out when its `maxDuration` of time in progress is used up. */
export function timeOutJob(sessionId: string, runAt: Date): JobSpec<'session__time_out'> {
  return { task: 'session__time_out', payload: { sessionId }, jobKey: `session-timeout:${sessionId}`, runAt };
}

/** Abandons the session after SESSION_ABANDON_AFTER seconds without a heartbeat or an answer. */
export function abandonIdleJob(sessionId: string, runAt: Date): JobSpec<'session__abandon_idle'> {
  return { task: 'session__abandon_idle', payload: { sessionId }, jobKey: `session-idle:${sessionId}`, runAt };
}

/**
 * Publishes `session.started` once the session is in progress (announce-start.ts). A job, not a
 * write of the start itself: the common start is one statement (start-interview.ts), which this
 * adds a job row to rather than an event and its deliveries.
 */
export function announceStartJob(sessionId: string): JobSpec<'session__announce_start'> {
  return { task: 'session__announce_start', payload: { sessionId }, jobKey: `session-started:${sessionId}` };
}

/**
 * What follows a finished session, in order: the transcript, then the insights, then the session's
 * recordings (its tracks and both merged), then the `interview.completed` announcement, whose
 * links then work, and beside it the exports (transcript JSON, PDF report), which the
 * announcement does not wait for (its transcript link is made on demand). Each step adds the
 * next in its own transaction, so the order holds even when a step is retried; the first is
 * added with the status change.
 */
export function generateTranscriptJob(sessionId: string): JobSpec<'session__generate_transcript'> {
  return { task: 'session__generate_transcript', payload: { sessionId }, jobKey: `session-transcript:${sessionId}` };
}

export function generateInsightsJob(sessionId: string): JobSpec<'session__generate_insights'> {
  return { task: 'session__generate_insights', payload: { sessionId }, jobKey: `session-insights:${sessionId}` };
}

export function announceCompletionJob(sessionId: string): JobSpec<'session__announce_completion'> {
  return { task: 'session__announce_completion', payload: { sessionId }, jobKey: `session-announce:${sessionId}` };
}

export function prepareSessionFilesJob(sessionId: string): JobSpec<'session__prepare_files'> {
  return { task: 'session__prepare_files', payload: { sessionId }, jobKey: `session-files:${sessionId}` };
}

/** Exports render one at a time (one queue): a long PDF never holds more than one of the worker's slots. */
export const SESSION_EXPORTS_QUEUE = 'session-exports';

export function prepareSessionExportsJob(sessionId: string): JobSpec<'session__prepare_exports'> {
  return { task: 'session__prepare_exports', payload: { sessionId }, jobKey: `session-exports:${sessionId}`, queueName: SESSION_EXPORTS_QUEUE };
}
