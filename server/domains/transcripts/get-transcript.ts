import type { EntityManager } from '@mikro-orm/postgresql';
import type { TTranscript } from '../../../shared/schemas/transcripts.js';
import { loadTranscriptSource } from './load-transcript.js';
import { shapeTranscript, type TranscriptOptions } from './shape-transcript.js';

/** `GET /v1/sessions/{sessionId}/transcript` in JSON form (the route renders text, SRT and WebVTT from it). */
export async function getTranscript(em: EntityManager, organizationId: string, sessionId: string, options: TranscriptOptions): Promise<TTranscript> {
  const { source } = await loadTranscriptSource(em, organizationId, sessionId);
  return shapeTranscript(source, options);
}
