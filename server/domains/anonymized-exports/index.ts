/** What other domains may use of anonymized exports: the scrubber of a participant's identity (stakeholder links with PII redacted hide the same things). */
export { IDENTITY_COLUMNS, type IdentityRow, type ScrubberOptions, sessionScrubber } from './identity-scrubber.js';
