/**
 * What other domains may use of redactions: the transcript audit log and the one way to change a
 * session's stored transcript (its lock, and its stored exports made again), which sentiment
 * overrides use as redactions do.
 */
export { readAuditEntries, writeAuditEntry } from './audit-log.js';
export { changeSessionTranscript, type ExportServices, rewriteSessionExports } from './rewrite-session-exports.js';
