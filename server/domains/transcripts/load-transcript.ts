import type { EntityManager } from '@mikro-orm/postgresql';
import type { TTranscriptNoneReason } from '../../../shared/schemas/transcripts.js';
import type { Session } from '../../entities/index.js';
import { AppError } from '../../errors.js';
import type { OrganizationScope } from '../common/caller.js';
import { loadPlan, loadSession } from '../sessions/index.js';
import { MIN_SPEECH_SECONDS } from './generate-transcript.js';
import { readSessionUtterances } from './read-utterances.js';
import type { TranscriptSource } from './shape-transcript.js';
import { isStructuredQuestion } from '../../../shared/schemas/scripts.js';

/** The question ids of a session's pinned script whose answers carry a parsed `value`. */
export async function structuredQuestionIdsOf(em: EntityManager, session: Pick<Session, 'scriptId' | 'scriptVersion'>): Promise<Set<string>> {
  const plan = await loadPlan(em, session);
  return new Set(plan.questions.filter(isStructuredQuestion).map((question) => question.id));
}

/** 409 TRANSCRIPT_NOT_READY, saying whether to wait (`pending`) or that none will come (`none`). */
function transcriptNotReady(session: Pick<Session, 'id' | 'status' | 'transcriptStatus' | 'transcriptNoneReason'>): AppError {
  if (session.transcriptStatus === 'none') {
    const reason = session.transcriptNoneReason as TTranscriptNoneReason;
    const why =
      reason === 'too_little_speech'
        ? `the participant spoke for less than ${MIN_SPEECH_SECONDS} seconds in all`
        : 'the participant gave no answer that could be transcribed';
    return new AppError('TRANSCRIPT_NOT_READY', `Session ${session.id} has no transcript: ${why}.`, { sessionId: session.id, status: 'none', reason });
  }
  const when =
    session.status === 'completed' || session.status === 'abandoned'
      ? 'it is being generated; retry shortly'
      : `the session is ${session.status}; it is made once the session ends`;
  return new AppError('TRANSCRIPT_NOT_READY', `Session ${session.id} has no transcript yet: ${when}.`, {
    sessionId: session.id,
    status: 'pending',
    sessionStatus: session.status,
  });
}

/** A session's generated transcript (409 TRANSCRIPT_NOT_READY before it exists, 404 for another organization's session). */
export async function loadTranscriptSource(
  em: EntityManager,
  scope: OrganizationScope,
  input: { sessionId: string },
): Promise<{ session: Session; source: TranscriptSource }> {
  const session = await loadSession(em, scope, input);
  return { session, source: await transcriptSourceOf(em, session) };
}

/** The generated transcript of a session the caller has already loaded (409 TRANSCRIPT_NOT_READY before it exists). */
export async function transcriptSourceOf(em: EntityManager, session: Session): Promise<TranscriptSource> {
  if (session.transcriptStatus !== 'ready' || !session.transcriptGeneratedAt) throw transcriptNotReady(session);
  const [rows, structuredQuestionIds] = await Promise.all([readSessionUtterances(em, session.id), structuredQuestionIdsOf(em, session)]);
  return {
    sessionId: session.id,
    language: session.language,
    durationSeconds: session.durationSeconds,
    generatedAt: session.transcriptGeneratedAt,
    structuredQuestionIds,
    rows,
  };
}
