import type { ParticipantAuth } from '../common/caller.js';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Deps } from '../common/deps.js';
import type { TFeedback, TFeedbackInput } from '../../../shared/schemas/sessions.js';
import { type Session, type SessionFeedback as SessionFeedbackRow, SessionFeedback } from '../../entities/index.js';
import { AppError } from '../../errors.js';
import { newId } from '../../lib/ids.js';
import { publishEvent } from '../webhooks/index.js';
import { loadSessionFacts } from './session-event-facts.js';
import { findLatestSession } from './participant-access.js';

function toFeedbackDto(feedback: SessionFeedbackRow): TFeedback {
  return {
    id: feedback.id,
    overall_rating: feedback.overallRating ?? null,
    ease_of_use_rating: feedback.easeOfUseRating ?? null,
    audio_quality_rating: feedback.audioQualityRating ?? null,
    question_clarity_rating: feedback.questionClarityRating ?? null,
    comments: feedback.comments ?? null,
    technical_issues: feedback.technicalIssues ?? null,
    would_recommend: feedback.wouldRecommend ?? null,
    submitted_at: feedback.submittedAt.toISOString(),
  };
}

/**
 * `POST /api/interview/feedback`: the participant's feedback on their finished interview, once
 * (409 FEEDBACK_ALREADY_SUBMITTED after that), and its `session.feedback_submitted` event with
 * its deliveries, in the same transaction.
 */
export async function submitFeedback({ em }: Pick<Deps, 'em'>, participant: ParticipantAuth, input: TFeedbackInput): Promise<{ feedback: TFeedback }> {
  const session = await findLatestSession(em, participant.inviteId);
  if (!session || session.status !== 'completed') {
    throw new AppError('SESSION_NOT_ACTIVE', 'Feedback is taken once the interview is completed.', { status: session?.status ?? null });
  }
  try {
    return await em.transactional(async (tx) => {
      const feedback = recordFeedback(tx, session, input);
      await tx.flush();
      const dto = toFeedbackDto(feedback);
      // A preview's feedback is kept with it but announced to no receiver.
      if (session.preview) return { feedback: dto };
      const facts = await loadSessionFacts(tx, session.id);
      await publishEvent(
        { em: tx },
        { organizationId: session.organization.id },
        { type: 'session.feedback_submitted', sessionId: session.id, facts: { ...facts, feedback: dto }, occurredAt: feedback.submittedAt },
      );
      return { feedback: dto };
    });
  } catch (error) {
    if (error instanceof UniqueConstraintViolationException) {
      throw new AppError('FEEDBACK_ALREADY_SUBMITTED', 'Feedback for this interview was already submitted.', { sessionId: session.id });
    }
    throw error;
  }
}

function recordFeedback(tx: EntityManager, session: Session, input: TFeedbackInput): SessionFeedbackRow {
  return tx.create(SessionFeedback, {
    id: newId('fbk'),
    organization: session.organization.id,
    session,
    overallRating: input.overall_rating ?? null,
    easeOfUseRating: input.ease_of_use_rating ?? null,
    audioQualityRating: input.audio_quality_rating ?? null,
    questionClarityRating: input.question_clarity_rating ?? null,
    comments: input.comments ?? null,
    technicalIssues: input.technical_issues ?? null,
    wouldRecommend: input.would_recommend ?? null,
    submittedAt: new Date(),
  });
}
