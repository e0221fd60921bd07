import type { EntityManager } from '@mikro-orm/postgresql';
import type { TParticipantSession, TSession, TTurn } from '../../../shared/schemas/sessions.js';
import type { TQuestion } from '../../../shared/schemas/scripts.js';
import type { TTurnTakingSummary } from '../../../shared/schemas/turn-taking.js';
import type { Session, SessionUtterance } from '../../entities/index.js';
import { storedSentiment } from '../common/stored-sentiment.js';
import { durationAt } from './session-clock.js';
import { turnTakingSummary } from './turn-timing.js';

/** The session record; `turnTaking` is its voice turns' summary (turnTakingSummaries), read beside it. */
export function toSessionDto(session: Session, turnTaking: TTurnTakingSummary | null, now: Date = new Date()): TSession {
  return {
    id: session.id,
    campaignId: session.campaign.id,
    inviteId: session.invite.id,
    scriptId: session.scriptId,
    scriptVersion: session.scriptVersion,
    status: session.status,
    completionStatus: session.completionStatus ?? null,
    participant: { email: session.participantEmail ?? null, name: session.participantName ?? null },
    startedAt: session.startedAt?.toISOString() ?? null,
    completedAt: session.completedAt?.toISOString() ?? null,
    duration: durationAt(session, now),
    questionsAnswered: session.questionsAnswered,
    totalQuestions: session.totalQuestions,
    language: session.language,
    sentiment: storedSentiment(session.sentiment, session.sentimentScore),
    device: session.device ?? null,
    metadata: session.metadata,
    pauseReason: session.pauseReason ?? null,
    consent: session.consent ?? null,
    answers: session.answers,
    turnTaking,
    createdAt: session.createdAt.toISOString(),
    updatedAt: session.updatedAt.toISOString(),
  };
}

/** What the participant's view of a session is made of. */
export type ParticipantSessionFields = Pick<
  Session,
  | 'id'
  | 'status'
  | 'completionStatus'
  | 'language'
  | 'consentRequired'
  | 'consent'
  | 'questionsAnswered'
  | 'totalQuestions'
  | 'activeSeconds'
  | 'activeSince'
  | 'startedAt'
  | 'completedAt'
  | 'createdAt'
>;

export function toParticipantSessionDto(session: ParticipantSessionFields, now: Date = new Date()): TParticipantSession {
  const consent = session.consent ? { granted: session.consent.granted, type: session.consent.type, grantedAt: session.consent.grantedAt } : null;
  return {
    id: session.id,
    status: session.status,
    completionStatus: session.completionStatus ?? null,
    language: session.language,
    consentRequired: session.consentRequired,
    consent,
    questionsAnswered: session.questionsAnswered,
    totalQuestions: session.totalQuestions,
    duration: durationAt(session, now),
    startedAt: session.startedAt?.toISOString() ?? null,
    completedAt: session.completedAt?.toISOString() ?? null,
    createdAt: session.createdAt.toISOString(),
  };
}

/** The record the actor may see: the full session for an API key, the participant's view for a token. */
export async function sessionViewFor(
  em: EntityManager,
  actor: { kind: string },
  session: Session,
  now: Date = new Date(),
): Promise<TSession | TParticipantSession> {
  if (actor.kind === 'participant') return toParticipantSessionDto(session, now);
  return toSessionDto(session, await turnTakingSummary(em, { organizationId: session.organization.id }, { sessionId: session.id }), now);
}

/** The pending AI utterance as the participant's client sees it. */
export function toTurn(utterance: Pick<SessionUtterance, 'id' | 'text' | 'kind'> & Partial<Pick<SessionUtterance, 'value'>>, question: TQuestion): TTurn {
  const kind =
    utterance.kind === 'follow_up' || utterance.kind === 're_ask' || utterance.kind === 'confirm' || utterance.kind === 'check_heard'
      ? utterance.kind
      : 'question';
  return {
    utteranceId: utterance.id,
    text: utterance.text ?? '',
    questionId: question.id,
    kind,
    // A confirmation is answered yes or no, whatever the question it confirms; a follow-up asks for
    // the participant's own words (on a rating or a choice too: "why a 3?"), and so does a
    // read-back of what was heard.
    question:
      kind === 'confirm'
        ? { type: 'yes_no' }
        : kind === 'check_heard' || kind === 'follow_up'
          ? { type: 'open' }
          : {
              type: question.type,
              ...(question.options ? { options: question.options } : {}),
              ...(question.scale ? { scale: question.scale } : {}),
            },
    ...(kind === 'check_heard' && typeof utterance.value === 'string' ? { heard: utterance.value } : {}),
  };
}
