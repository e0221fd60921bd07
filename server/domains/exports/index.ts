/** What other domains may use of exports: the loop over finished sessions (anonymized exports shape each session their way) and CSV's guard against formulas. */
export { finishedSessions, type FinishedSessionRow, type FinishedSessionsScope } from './finished-sessions.js';
export { inert } from './transcripts-csv.js';
