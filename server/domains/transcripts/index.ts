/** What other domains may use of transcripts: everything else here is the domain's own. */
export { loadTranscriptSource, structuredQuestionIdsOf, transcriptSourceOf } from './load-transcript.js';
export { readSessionUtterances, readTranscriptUtterances, type TranscriptRow } from './read-utterances.js';
export { FULL_TRANSCRIPT, redactedParticipant, redactorFor, shapeTranscript, type TranscriptSource } from './shape-transcript.js';
