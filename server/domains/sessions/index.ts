/** What other domains may use of sessions: everything else here is the domain's own. */
export { placeAiTurns, type TimelineTurn } from './ai-turn-placement.js';
export { finishSession } from './finish-session.js';
export { loadPlan, loadSession } from './load-session.js';
export { loadSessionFacts } from './session-event-facts.js';
export { offsetAt } from './session-clock.js';
export { announceCompletionJob, generateInsightsJob, prepareSessionExportsJob, prepareSessionFilesJob } from './session-jobs.js';
export { type SessionRecording, sessionRecordings } from './session-recordings.js';
export { summaryFromRow, TURN_TAKING_AGGREGATES, type TurnTakingAggregates } from './turn-timing.js';
export { TURN_TAKING_COLUMNS } from './queries.js';
