import type { EntityManager } from '@mikro-orm/postgresql';
import type { TProbeLedger } from '../../../shared/schemas/probes.js';
import type { TAnswerValue, TInterviewState, TTurnKind } from '../../../shared/schemas/sessions.js';
import type { Config } from '../../config.js';
import { type Session, SessionUtterance } from '../../entities/index.js';
import { addJobs, type JobSpec } from '../../jobs/add-jobs.js';
import type { InterviewPlan } from './load-session.js';
import { recordUtterance, speakingSeconds } from './record-utterance.js';
import { type ParticipantSessionFields, toParticipantSessionDto, toTurn } from './serialize.js';
import { activeSecondsAt, offsetAt, startClock } from './session-clock.js';
import { abandonIdleJob, announceStartJob, timeOutJob } from './session-jobs.js';
import { questionMediaOf, type ScriptQuestionMedia } from './question-media.js';
import { turnAudioUrl, type TurnVoicing } from './turn-audio-link.js';

/** Records an AI turn that waits for an answer (a question, follow-up, re-ask or confirmation) and makes it the pending turn. */
export function askTurn(
  tx: EntityManager,
  session: Session,
  turn: {
    kind: TTurnKind;
    text: string;
    questionId: string;
    decidedBy: string;
    /** `confirm` turns: the value read back. */
    value?: TAnswerValue;
    /** `follow_up` turns: why it was asked. */
    probe?: TProbeLedger;
  },
  now: Date,
  /** The end of the answer it follows: a turn never starts before what came before it ended. */
  notBefore = 0,
): SessionUtterance {
  const startTime = Math.max(offsetAt(session, now), notBefore);
  const utterance = recordUtterance(tx, session, {
    speaker: 'ai',
    kind: turn.kind,
    text: turn.text,
    questionId: turn.questionId,
    startTime,
    endTime: startTime + speakingSeconds(turn.text),
    decidedBy: turn.decidedBy,
    value: turn.value,
    probe: turn.probe,
  });
  session.pending = turn.kind;
  session.pendingUtteranceId = utterance.id;
  return utterance;
}

/** The jobs that watch a session in progress from `now`: its maxDuration and its idleness. */
export function watchJobs(
  session: Pick<Session, 'id' | 'status' | 'maxDurationSeconds' | 'activeSeconds' | 'activeSince'>,
  config: Pick<Config, 'sessionAbandonAfterSeconds'>,
  now: Date,
): JobSpec[] {
  const jobs: JobSpec[] = [abandonIdleJob(session.id, new Date(now.getTime() + config.sessionAbandonAfterSeconds * 1000))];
  if (session.maxDurationSeconds && session.status === 'in_progress') {
    const left = Math.max(0, session.maxDurationSeconds - activeSecondsAt(session, now));
    jobs.push(timeOutJob(session.id, new Date(now.getTime() + left * 1000)));
  }
  return jobs;
}

/** created → in_progress: the clock starts and the first question is asked. */
export async function beginInterview(
  tx: EntityManager,
  session: Session,
  plan: InterviewPlan,
  config: Pick<Config, 'sessionAbandonAfterSeconds'>,
  now: Date,
): Promise<SessionUtterance> {
  session.status = 'in_progress';
  startClock(session, now);
  const first = plan.questions[0]!;
  session.questionIndex = 0;
  session.followUpsAsked = 0;
  session.reAsked = false;
  const asked = askTurn(tx, session, { kind: 'question', text: first.text, questionId: first.id, decidedBy: 'engine' }, now);
  await tx.flush();
  // A preview is the researcher trying the script: no receiver hears of it.
  await addJobs(tx, [...watchJobs(session, config, now), ...(session.preview ? [] : [announceStartJob(session.id)])]);
  return asked;
}

/** What the participant's client sees: their session and the turn waiting for an answer. */
export async function interviewStateOf(
  em: EntityManager,
  /** Signs the turn's `audioUrl` when the server speaks turns, and its question's media links. */
  voicing: TurnVoicing,
  session: ParticipantSessionFields & Pick<Session, 'pendingUtteranceId' | 'questionIndex' | 'voice' | 'scriptId'> & { organization: { id: string } },
  plan: InterviewPlan,
  now: Date = new Date(),
  /** The pending turn when the caller just asked it (saves reading it back). */
  asked?: Pick<SessionUtterance, 'id' | 'text' | 'kind' | 'value'>,
  /** The script's question media when the caller read them already. */
  scriptMedia?: ScriptQuestionMedia[],
): Promise<TInterviewState> {
  const turn =
    session.pendingUtteranceId && (session.status === 'in_progress' || session.status === 'paused')
      ? await pendingTurnOf(em, voicing, { ...session, pendingUtteranceId: session.pendingUtteranceId }, plan, now, asked, scriptMedia)
      : null;
  return { session: toParticipantSessionDto(session, now), turn };
}

/** The turn waiting for an answer as the participant's client sees it: its question, audio link and media. */
export async function pendingTurnOf(
  em: EntityManager,
  voicing: TurnVoicing,
  session: Pick<Session, 'id' | 'questionIndex' | 'voice' | 'scriptId'> & { pendingUtteranceId: string; organization: { id: string } },
  plan: InterviewPlan,
  now: Date,
  asked?: Pick<SessionUtterance, 'id' | 'text' | 'kind' | 'value'>,
  scriptMedia?: ScriptQuestionMedia[],
): Promise<NonNullable<TInterviewState['turn']>> {
  const utterance =
    asked?.id === session.pendingUtteranceId
      ? asked
      : await em.findOneOrFail(SessionUtterance, session.pendingUtteranceId, { fields: ['id', 'text', 'kind', 'value'] });
  const turn = toTurn(utterance, plan.questions[session.questionIndex]!);
  const audioUrl = await turnAudioUrl(voicing, session, utterance.id, now);
  if (audioUrl) turn.audioUrl = audioUrl;
  const media = await questionMediaOf(em, voicing.signer, session, turn.questionId, now, scriptMedia);
  if (media.length > 0) turn.media = media;
  return turn;
}
