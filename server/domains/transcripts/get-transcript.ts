import type { TTranscript } from '../../../shared/schemas/transcripts.js';
import { Session } from '../../entities/index.js';
import { notFound } from '../../errors.js';
import type { Caller } from '../common/caller.js';
import type { Deps } from '../common/deps.js';
import { loadTranscriptSource, transcriptSourceOf } from './load-transcript.js';
import { FULL_TRANSCRIPT, shapeTranscript, type TranscriptOptions } from './shape-transcript.js';

/** `GET /v1/sessions/{sessionId}/transcript` in JSON form (the route renders text, SRT and WebVTT from it). */
export async function getTranscript({ em }: Pick<Deps, 'em'>, caller: Caller, input: TranscriptOptions & { sessionId: string }): Promise<TTranscript> {
  const { source } = await loadTranscriptSource(em, caller, input);
  return shapeTranscript(source, input);
}

/**
 * For a signed transcript link (a webhook's `transcript_url`), which names a session and is its
 * own credential: the whole transcript, 404 for a session that no longer exists.
 */
export async function getTranscriptForLink({ em }: Pick<Deps, 'em'>, { sessionId }: { sessionId: string }): Promise<TTranscript> {
  const session = await em.findOne(Session, sessionId);
  if (!session) throw notFound('session', sessionId);
  return shapeTranscript(await transcriptSourceOf(em, session), FULL_TRANSCRIPT);
}
