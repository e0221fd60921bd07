import type { ParticipantAuth } from '../common/caller.js';
import type { Deps } from '../common/deps.js';
import { createReadStream } from 'node:fs';
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { TAnswerValue, TInterviewState, TParsedAnswer } from '../../../shared/schemas/sessions.js';
import type { TVoiceTiming } from '../../../shared/schemas/turn-taking.js';
import { Session, SessionFile, SessionUtterance } from '../../entities/index.js';
import type { UtteranceKind } from '../../entities/session-utterance.js';
import { AppError, validationError } from '../../errors.js';
import type { ConversationTurn } from '../../interviewer/interviewer.js';
import { newId } from '../../lib/ids.js';
import { sha256OfFile } from '../../lib/sha256-file.js';
import { crashIfEnabled } from '../../platform/test-faults.js';
import { type AudioFacts, audioExtensionOf, probeAudio } from '../../speech/audio-probe.js';
import { SpeechRecognitionError } from '../../speech/speech-recognizer.js';
import { finishSession } from './finish-session.js';
import { type AnswerOutcome, decideAfterAnswer, type FlowPosition, type QuestionHistory } from './interview-flow.js';
import {
  type HeardCheckReply,
  heardCheckText,
  isLowConfidence,
  needsHeardCheck,
  type PendingHeardCheck,
  pendingHeardCheckOf,
  settleHeardCheck,
} from './heard-check.js';
import { phrasesFor } from '../../interviewer/phrases.js';
import { askTurn, interviewStateOf, pendingTurnOf } from './interview-turns.js';
import type { ScriptQuestionMedia } from './question-media.js';
import { speakAhead } from './turn-audio-link.js';
import { type InterviewPlan, loadPlan, sessionNotActive } from './load-session.js';
import { toParticipantSessionDto } from './serialize.js';
import {
  answerContext,
  type AnswerTurnWrite,
  confirmHeardAnswer,
  correctHeardAnswer,
  recordAnswerTurn,
  recordSessionBill,
  type UtteranceRow,
} from './queries.js';
import { billFinishedSession } from './session-billing.js';
import { generateTranscriptJob } from './session-jobs.js';
import { recordUtterance, speakingSeconds, utteranceRow } from './record-utterance.js';
import { activeSecondsAt, durationAt, offsetAt } from './session-clock.js';
import type { SessionServices } from './start-interview.js';
import { answeredTurnTimingOf, answerTimingFields, assertVoiceTiming, elapsedMs, recordAnsweredTurnTiming, type ServerTurnTiming } from './turn-timing.js';

/**
 * Clients' clocks drift: an offset up to this many seconds "after now" is brought back to now (a
 * later one is refused), and a recording may be this much longer than the time its turn took.
 */
const CLOCK_SLACK_SECONDS = 5;

/** The least an answer lasts on the timeline when the turn leaves that much time (the README's shortest subtitle cue). */
const MIN_ANSWER_SECONDS = 0.5;

export interface ParticipantAnswer {
  /** Typed text, or the browser's own transcript of `audio`. */
  text?: string | undefined;
  /** A recorded answer, as received on local disk (the caller removes the file afterwards), with its SHA-256 when the caller has it. */
  audio?: { file: string; sha256?: string | undefined } | undefined;
  startTime?: number | undefined;
  endTime?: number | undefined;
  confidence?: number | undefined;
  /** The turn this answers (`turn.utteranceId`): a late retry of an earlier answer is refused instead of answering the next question. */
  utteranceId?: string | undefined;
  /** Voice mode: the page's timing of this answer and of the AI turn it answers. */
  voiceTiming?: TVoiceTiming | undefined;
}

interface AudioAnswer {
  fileId: string;
  storageKey: string;
  contentType: string;
  size: number;
  sha256: string;
  durationSeconds: number | null;
}

/**
 * An answer read and decided, not yet written: what the slow part of a turn produced (the
 * stored audio, its transcript, the interviewer's decision) before any row is locked.
 */
export interface PreparedAnswer {
  sessionId: string;
  plan: InterviewPlan;
  question: InterviewPlan['questions'][number];
  position: FlowPosition;
  answeredTurnId: string | null;
  audio: AudioAnswer | undefined;
  text: string | null;
  confidence: number | null;
  outcome: AnswerOutcome;
  answer: ParticipantAnswer;
  /** The reply to a `check_heard` turn: the check it settles and how. */
  heardCheck?: { check: PendingHeardCheck; reply: HeardCheckReply } | undefined;
  /** Recorded on the AI turn this answer leads to. */
  serverTiming: ServerTurnTiming;
  /** The answered turn's times on the session's clock (fixed once the turn was put). */
  answeredTurnTimes: TurnTimes | null;
  /** The script's question media, for the turn the answer leads to. */
  scriptMedia: ScriptQuestionMedia[];
  /** The session as the answer was prepared with it (the one-statement write checks it unchanged). */
  session: AnsweringSession;
  snapshot: SessionSnapshot;
}

/**
 * `POST /api/interview/answer` is two steps: the slow work first (storing and transcribing audio,
 * asking an LLM), with no row locked and no transaction open (`prepareAnswer`); then the answer
 * and the next turn written in one transaction that first checks the pending turn is still the
 * one answered (409 TURN_ALREADY_ANSWERED when a concurrent answer won: `commitAnswer`). The
 * last answer completes the session (and bills it). The answer operation runs them (server/http/participant-answer.ts).
 */

/**
 * The answer was not recorded: its audio must not stay behind as an orphan file. No caller: the
 * prepared answer was checked against the participant by `prepareAnswer`, which made it.
 */
export async function discardAnswer({ services }: { services: Pick<SessionServices, 'storage'> }, prepared: PreparedAnswer): Promise<void> {
  if (prepared.audio) await services.storage.delete(prepared.audio.storageKey).catch(() => undefined);
}

/** Reads the session, stores and transcribes audio, and asks the interviewer: everything slow, outside any transaction. */
export async function prepareAnswer(
  { em, services }: Pick<Deps, 'em'> & { services: SessionServices },
  participant: ParticipantAuth,
  answer: ParticipantAnswer,
): Promise<PreparedAnswer> {
  assertVoiceTiming(answer.voiceTiming);
  // The token was checked (not cancelled) when the request was authenticated.
  const context = await readAnswerContext(em, participant.inviteId, services.interviewer.usesConversation);
  if (!context) {
    throw new AppError('SESSION_NOT_ACTIVE', 'There is no interview in progress for this invite; start it first.', { inviteId: participant.inviteId });
  }
  const { session } = context;
  if (session.status !== 'in_progress') {
    throw session.status === 'created'
      ? new AppError('SESSION_NOT_ACTIVE', `Session ${session.id} is waiting for consent; it cannot take answers yet.`, {
          sessionId: session.id,
          status: session.status,
        })
      : sessionNotActive(session, 'answered');
  }
  if (answer.utteranceId !== undefined && answer.utteranceId !== session.pendingUtteranceId) throw turnAlreadyAnswered(session.id);
  const plan = await loadPlan(em, session);
  const question = plan.questions[session.questionIndex]!;
  const position: FlowPosition = {
    questionIndex: session.questionIndex,
    pending: session.pending ?? 'question',
    followUpsAsked: session.followUpsAsked,
    reAsked: session.reAsked,
    // A pending confirmation holds the value it reads back.
    ...(session.pending === 'confirm' ? { confirming: (context.answeredTurnValue as TAnswerValue | undefined) ?? null } : {}),
  };
  const check = session.pending === 'check_heard' ? await pendingHeardCheckOf(em, session) : null;

  let audio: AudioAnswer | undefined;
  let text = answer.text ?? null;
  let confidence = answer.confidence ?? null;
  let unheard = false;
  let recognitionMs: number | null = null;
  const earlier = earlierTurnsOn(context.turns, question.id, services.interviewer.usesConversation);
  if (answer.audio) {
    if (session.consentRequired && session.consent?.type === 'data_processing') {
      throw new AppError('RECORDING_NOT_CONSENTED', 'The participant did not consent to recording: type the answer instead.', { sessionId: session.id });
    }
    const facts = await checkAnswerAudio(answer.audio.file, longestRecording(session, context.answeredTurnTimes));
    const file = answer.audio.file;
    const recognizing = async () => {
      const started = performance.now();
      // The reply to a read-back is a yes or the answer again, in free words.
      const hints = check ? { type: 'open' as const } : question;
      const heard = await transcribe(services, session, hints, file, facts.contentType, position.pending === 'confirm');
      recognitionMs = elapsedMs(started);
      return heard;
    };
    // Stored and transcribed at once: neither needs the other, and the recognizer's time (a
    // provider's answer, or pocketsphinx) covers the storing.
    const storing = storeAnswerAudio(services, session, answer.audio, facts);
    const hearing = text === null && services.speech.recognizer ? recognizing() : Promise.resolve({ text, confidence, unheard });
    try {
      [audio, { text, confidence, unheard }] = await Promise.all([storing, hearing]);
    } catch (error) {
      // The answer is not recorded: what was stored of it goes too.
      const stored = await storing.catch(() => undefined);
      await Promise.allSettled([hearing]);
      if (stored) await services.storage.delete(stored.storageKey).catch(() => undefined);
      throw error;
    }
  }
  // Spoken: a recording, or the browser's transcript with its confidence; else typed.
  const spoken = answer.audio !== undefined || answer.confidence !== undefined;
  // The reply to a read-back settles it; the flow then goes on from the turn the checked answer replied to, with the answer that counts.
  const reply = check ? settleHeardCheck(check.heard, { text, spoken }, session.language) : null;
  const flowPosition: FlowPosition = check ? { ...position, pending: check.answeredKind } : position;
  let flowAnswer = text;
  let flowConfidence = confidence;
  if (check && reply?.kind === 'confirmed') [flowAnswer, flowConfidence] = [check.heard, check.confidence];
  if (reply?.kind === 'corrected') [flowAnswer, flowConfidence] = [reply.text, null];
  if (reply?.kind === 'denied') flowAnswer = null;
  const prepared = {
    sessionId: session.id,
    plan,
    question,
    position: flowPosition,
    answeredTurnId: session.pendingUtteranceId ?? null,
    audio,
    text,
    confidence,
    answer,
    heardCheck: check && reply ? { check, reply } : undefined,
    answeredTurnTimes: context.answeredTurnTimes,
    scriptMedia: context.scriptMedia,
    session,
    snapshot: context.snapshot,
  };
  try {
    const conversation = services.interviewer.usesConversation
      ? [...earlier.conversation, { speaker: 'participant' as const, text: flowAnswer ?? '', questionId: question.id }]
      : [];
    const deciding = performance.now();
    const outcome: AnswerOutcome =
      !check && needsHeardCheck(question, position, text, confidence)
        ? {
            utteranceValue: undefined,
            finalValue: undefined,
            next: { kind: 'check_heard', text: heardCheckText(session.language, text!), decidedBy: 'engine', heard: text! },
            position,
          }
        : reply?.kind === 'denied' && !position.reAsked
          ? {
              utteranceValue: undefined,
              finalValue: undefined,
              next: { kind: 're_ask', text: phrasesFor(session.language).reAsk(question), decidedBy: 'engine' },
              position: { ...flowPosition, pending: 're_ask', reAsked: true },
            }
          : await decideAfterAnswer({
              questions: plan.questions,
              systemPrompt: plan.systemPrompt,
              settings: plan.settings,
              language: session.language,
              position: flowPosition,
              answer: flowAnswer,
              confidence: flowConfidence,
              unheard: unheard && !check,
              conversation,
              onQuestion: earlier.onQuestion,
              interviewer: services.interviewer,
              answerParser: services.answerParser,
            });
    const interviewerMs = elapsedMs(deciding);
    // A participant who speaks listens: their next turn's audio is started now, before the turn is written.
    if (answer.audio && outcome.next.kind !== 'closing') speakAhead(services, session, outcome.next.text);
    return { ...prepared, outcome, serverTiming: { recognitionMs, interviewerMs } };
  } catch (error) {
    await discardAnswer({ services }, { ...prepared, outcome: undefined as never, serverTiming: undefined as never });
    throw error;
  }
}

function turnAlreadyAnswered(sessionId: string): AppError {
  return new AppError(
    'TURN_ALREADY_ANSWERED',
    'This question was answered by another request meanwhile; start the interview again to get the current question.',
    {
      sessionId,
    },
  );
}

/**
 * Writes a prepared answer and the next turn in one transaction, if the answered turn is still the
 * pending one. No caller: the prepared answer was checked against the participant by `prepareAnswer`.
 */
export async function commitAnswer({ em, services }: Pick<Deps, 'em'> & { services: SessionServices }, prepared: PreparedAnswer): Promise<TInterviewState> {
  const recorded = await recordTurnInOneStatement(em, services, prepared);
  if (recorded) {
    // Tests only: the process may die here, the finished session committed and its jobs not yet run.
    if (recorded.session.status === 'completed') crashIfEnabled(services.config, 'session:after-finish');
    return recorded;
  }
  const { plan, question, position, answeredTurnId, audio, text, confidence, outcome, answer, serverTiming, heardCheck, answeredTurnTimes, scriptMedia } =
    prepared;
  // A typed reply to a read-back settles the answer it checks and is not an answer of its own.
  const settlesInPlace = heardCheck !== undefined && !audio && (heardCheck.reply.kind === 'confirmed' || heardCheck.reply.kind === 'corrected');
  {
    const state = await em.transactional(async (tx) => {
      const locked = await tx.findOneOrFail(Session, prepared.sessionId, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
      if (locked.status !== 'in_progress') throw sessionNotActive(locked, 'answered');
      if (locked.pendingUtteranceId !== answeredTurnId) throw turnAlreadyAnswered(locked.id);
      const now = new Date();
      // Read when the answer was prepared: a turn's times never change, and it is still the pending one.
      const pendingTurn = answeredTurnTimes!;
      const { startTime, endTime } = settlesInPlace
        ? { startTime: pendingTurn.endTime, endTime: Math.max(pendingTurn.endTime, offsetAt(locked, now)) }
        : answerTimes(locked, now, answer, pendingTurn, audio?.durationSeconds ?? null, text);
      if (audio) {
        tx.create(SessionFile, { ...answerFileFields(audio), organization: locked.organization.id, session: locked, kind: 'audio' });
      }
      let answerId: string;
      if (settlesInPlace) {
        answerId = heardCheck.check.answerId;
      } else {
        const utterance = recordUtterance(tx, locked, {
          speaker: 'participant',
          kind: 'answer',
          text,
          questionId: question.id,
          startTime,
          endTime,
          value: outcome.utteranceValue,
          confidence,
          audioFileId: audio?.fileId ?? null,
        });
        if (text !== null && isLowConfidence(confidence)) utterance.heardCheck = 'unclear';
        Object.assign(utterance, answerTimingFields(answer.voiceTiming));
        answerId = utterance.id;
      }
      if (heardCheck) await settleCheckedAnswer(tx, locked, heardCheck);
      await recordAnsweredTurnTiming(tx, { organizationId: locked.organization.id, sessionId: locked.id, answeredTurnId }, answer.voiceTiming);
      // An answer read back counts once it is settled.
      if (position.pending === 'question' && outcome.next.kind !== 'check_heard') locked.questionsAnswered += 1;
      if (outcome.finalValue !== undefined) {
        locked.answers = withAnswer(locked.answers, {
          questionId: question.id,
          value: outcome.finalValue,
          utteranceId: answerId,
          confidence: outcome.finalValue === null ? null : (outcome.finalConfidence ?? null),
        });
      }
      locked.lastActivityAt = now;

      let closing: string | undefined;
      let asked: SessionUtterance | undefined;
      const timedOut =
        locked.maxDurationSeconds !== null && locked.maxDurationSeconds !== undefined && activeSecondsAt(locked, now) >= locked.maxDurationSeconds;
      if (timedOut) {
        await finishSession(tx, locked, 'timed_out', now);
      } else if (outcome.next.kind === 'closing') {
        closing = outcome.next.text;
        const at = Math.max(offsetAt(locked, now), endTime);
        const said = recordUtterance(tx, locked, {
          speaker: 'ai',
          kind: 'closing',
          text: closing,
          questionId: null,
          startTime: at,
          endTime: at + speakingSeconds(closing),
          decidedBy: outcome.next.decidedBy,
        });
        Object.assign(said, serverTiming);
        await finishSession(tx, locked, 'completed', now);
      } else {
        const next = outcome.next;
        const nextQuestion = next.kind === 'question' ? plan.questions[next.questionIndex]! : question;
        locked.questionIndex = outcome.position.questionIndex;
        locked.followUpsAsked = outcome.position.followUpsAsked;
        locked.reAsked = outcome.position.reAsked;
        asked = askTurn(
          tx,
          locked,
          {
            kind: next.kind,
            text: next.text,
            questionId: nextQuestion.id,
            decidedBy: next.decidedBy,
            ...(next.kind === 'confirm' ? { value: next.value } : next.kind === 'check_heard' ? { value: next.heard } : {}),
            ...(next.kind === 'follow_up' ? { probe: next.probe } : {}),
          },
          now,
          endTime,
        );
        Object.assign(asked, serverTiming);
        locked.durationSeconds = durationAt(locked, now);
      }
      await tx.flush();
      const heard =
        heardCheck?.reply.kind === 'corrected' ? heardCheck.reply.text : heardCheck?.reply.kind === 'confirmed' && !audio ? heardCheck.check.heard : text;
      const state = {
        ...(await interviewStateOf(tx, services, locked, plan, now, asked, scriptMedia)),
        heard: { text: heard, ...(outcome.next.kind === 'check_heard' ? { lowConfidence: true } : {}) },
      };
      return closing === undefined ? state : { ...state, closing };
    });
    // Tests only: the process may die here, the finished session committed and its jobs not yet run.
    if (state.session.status === 'completed') crashIfEnabled(services.config, 'session:after-finish');
    return state;
  }
}

/**
 * The common turn, an answer that leads to the next AI turn, written in one statement
 * (recordAnswerTurn): the answer (and its recording), the next turn, what the page reported of
 * the answered turn, and the session, applied only if the session is still as the answer was
 * prepared with it. The same rows and values as the locked path below, without the ORM's lock,
 * unit of work and transaction round trips (the interview answer's benchmark, issue 33).
 *
 * The closing answer is the same statement, which then also completes the session, consumes its
 * invite and releases its hold; its bill and the transcript job follow in the same transaction
 * (billFinishedSession, recordSessionBill), as finishSession does on the locked path.
 *
 * Null: this turn is not the common one (the reply to a read-back, a preview's closing, a session
 * past its maximum duration: each finishes or settles otherwise) or the session moved on since the
 * answer was prepared (another answer, a pause, the end); the locked path then writes it or says
 * why not.
 */
async function recordTurnInOneStatement(em: EntityManager, services: SessionServices, prepared: PreparedAnswer): Promise<TInterviewState | null> {
  const { plan, question, position, answeredTurnId, answeredTurnTimes, audio, text, confidence, outcome, answer, serverTiming, session, snapshot } = prepared;
  const next = outcome.next;
  if (prepared.heardCheck || answeredTurnId === null || answeredTurnTimes === null) return null;
  const closing = next.kind === 'closing' ? next.text : undefined;
  if (closing !== undefined && snapshot.preview) return null;
  const now = new Date();
  const clock = { activeSeconds: snapshot.activeSeconds, activeSince: snapshot.activeSince === null ? null : new Date(snapshot.activeSince) };
  if (snapshot.maxDurationSeconds !== null && activeSecondsAt(clock, now) >= snapshot.maxDurationSeconds) return null;

  let times: { startTime: number; endTime: number };
  try {
    times = answerTimes(session, now, answer, answeredTurnTimes, audio?.durationSeconds ?? null, text);
  } catch (error) {
    // Offsets after now are refused, but by the locked path: a session that ended or moved on
    // meanwhile is told first, as it always was. Anything else is a fault, not a refusal.
    if (error instanceof AppError) return null;
    throw error;
  }
  const { startTime, endTime } = times;
  const nextQuestion = next.kind === 'question' ? plan.questions[next.questionIndex]! : question;
  const answerRow: UtteranceRow = {
    ...utteranceRow(snapshot.nextSeq, { speaker: 'participant', kind: 'answer', text, questionId: question.id, startTime, endTime }),
    value: outcome.utteranceValue ?? null,
    confidence,
    audio_file_id: audio?.fileId ?? null,
    heard_check: text !== null && isLowConfidence(confidence) ? 'unclear' : null,
    ...dbTimingFields(answerTimingFields(answer.voiceTiming)),
  };
  const askedStart = Math.max(offsetAt(session, now), endTime);
  const askedRow: UtteranceRow = {
    ...utteranceRow(snapshot.nextSeq + 1, {
      speaker: 'ai',
      kind: next.kind,
      text: next.text,
      questionId: closing !== undefined ? null : nextQuestion.id,
      startTime: askedStart,
      endTime: askedStart + speakingSeconds(next.text),
    }),
    value: next.kind === 'confirm' ? next.value : next.kind === 'check_heard' ? next.heard : null,
    decided_by: next.decidedBy,
    probe: next.kind === 'follow_up' ? (next.probe ?? null) : null,
    recognition_ms: serverTiming.recognitionMs,
    interviewer_ms: serverTiming.interviewerMs,
  };
  const timing = answeredTurnTimingOf(answer.voiceTiming, snapshot.previousAnswer);
  // The turn as the client will see it (its audio and media links) before the write: once the
  // statement has committed, nothing may fail and discard the recording it points to.
  const turn =
    closing !== undefined
      ? null
      : await pendingTurnOf(
          em,
          services,
          { ...session, pendingUtteranceId: askedRow.id, questionIndex: outcome.position.questionIndex },
          plan,
          now,
          { id: askedRow.id, text: askedRow.text, kind: next.kind, value: askedRow.value as SessionUtterance['value'] },
          prepared.scriptMedia,
        );
  const durationSeconds = durationAt(clock, now);
  const write: AnswerTurnWrite = {
    organizationId: session.organization.id,
    sessionId: session.id,
    answeredTurnId,
    expected: { nextSeq: snapshot.nextSeq, activeSince: snapshot.activeSince, activeSeconds: snapshot.activeSeconds, holdCredits: snapshot.holdCredits },
    finish: closing !== undefined ? { activeSeconds: activeSecondsAt(clock, now) } : null,
    session: {
      questionIndex: outcome.position.questionIndex,
      followUpsAsked: outcome.position.followUpsAsked,
      reAsked: outcome.position.reAsked,
      pending: next.kind,
      pendingUtteranceId: askedRow.id,
      // An answer read back counts once it is settled.
      questionsAnswered: position.pending === 'question' && next.kind !== 'check_heard' ? 1 : 0,
      answer:
        outcome.finalValue === undefined
          ? null
          : {
              questionId: question.id,
              value: outcome.finalValue,
              utteranceId: answerRow.id,
              confidence: outcome.finalValue === null ? null : (outcome.finalConfidence ?? null),
            },
      durationSeconds,
      at: now,
    },
    file: audio ? answerFileFields(audio) : null,
    utterances: [answerRow, askedRow],
    answeredTurnTiming: timing?.aiTurn ?? null,
    cutOff: timing?.cutOff ?? null,
  };
  const row =
    closing === undefined
      ? await recordAnswerTurn.first(em, write)
      : await em.transactional(async (tx) => {
          const finished = await recordAnswerTurn.first(tx, write);
          if (!finished) return undefined;
          // The bill, then the transcript job that starts what follows a finished session (finishSession's order).
          const organization =
            finished.plan === null ? null : { plan: finished.plan, credit_balance: finished.credit_balance ?? '0', livemode: finished.livemode !== false };
          const billing = await billFinishedSession(tx, { id: session.id, organizationId: session.organization.id, durationSeconds }, organization, now);
          await recordSessionBill.rows(tx, {
            organizationId: session.organization.id,
            sessionId: session.id,
            billing,
            jobs: [generateTranscriptJob(session.id)],
          });
          return finished;
        });
  if (!row) return null;
  const dateOf = (value: string | null) => (value === null ? null : new Date(value));
  const written = {
    id: row.id,
    status: row.status as Session['status'],
    completionStatus: row.completion_status as Session['completionStatus'],
    language: row.language,
    consentRequired: row.consent_required,
    consent: row.consent as Session['consent'],
    questionsAnswered: row.questions_answered,
    totalQuestions: row.total_questions,
    activeSeconds: row.active_seconds,
    activeSince: dateOf(row.active_since),
    startedAt: dateOf(row.started_at),
    completedAt: dateOf(row.completed_at),
    createdAt: new Date(row.created_at),
  };
  const state = {
    session: toParticipantSessionDto(written, now),
    turn,
    heard: { text, ...(next.kind === 'check_heard' ? { lowConfidence: true } : {}) },
  };
  return closing === undefined ? state : { ...state, closing };
}

/** The session file an answer's recording is kept as (both write paths). */
function answerFileFields(audio: AudioAnswer) {
  return {
    id: audio.fileId,
    name: `${audio.fileId}.${audioExtensionOf(audio.contentType)}`,
    contentType: audio.contentType,
    sizeBytes: audio.size,
    durationSeconds: audio.durationSeconds,
    sha256: audio.sha256,
    storageKey: audio.storageKey,
  };
}

function dbTimingFields(fields: ReturnType<typeof answerTimingFields>): Pick<UtteranceRow, 'speech_ended_at' | 'end_of_turn_at' | 'manual_end'> {
  return { speech_ended_at: fields.speechEndedAt ?? null, end_of_turn_at: fields.endOfTurnAt ?? null, manual_end: fields.manualEnd ?? null };
}

/**
 * The answer a read-back checked, as its reply settled it: confirmed as heard, or corrected by
 * typing (the correction is the answer's text, typed, and the recognised text is kept for audit).
 * An answer said again, or a bare no, leaves it unclear.
 */
async function settleCheckedAnswer(tx: EntityManager, session: Session, { check, reply }: NonNullable<PreparedAnswer['heardCheck']>): Promise<void> {
  if (reply.kind === 'confirmed') {
    await confirmHeardAnswer.rows(tx, { sessionId: session.id, answerId: check.answerId });
  } else if (reply.kind === 'corrected') {
    await correctHeardAnswer.rows(tx, { sessionId: session.id, answerId: check.answerId, text: reply.text });
  }
}

/** One entry per structured question; a re-asked question's later value replaces the first. */
function withAnswer(answers: TParsedAnswer[], entry: TParsedAnswer): TParsedAnswer[] {
  return [...answers.filter((existing) => existing.questionId !== entry.questionId), entry];
}

/**
 * When the participant spoke, in seconds from the session's start. It ends when the client says
 * or when the answer arrived, never after now: the client's offsets may run up to
 * CLOCK_SLACK_SECONDS ahead before they are refused, and are brought back to now (the timeline
 * never runs ahead of the session's clock, so nothing placed on it outlasts the session). It
 * starts when the client says, else as long before its end as the recording lasts (barge-in: a
 * measured recording may begin while the question is being said) or, for typed text, its
 * reading time, after the question was said when the answer came late enough for that. Never
 * before the question was put; and an answer lasts MIN_ANSWER_SECONDS when the turn leaves that
 * much time, so one sent before the question could be said is not an empty moment
 * (startTime == endTime).
 */
function answerTimes(
  session: Pick<Session, 'startedAt'>,
  now: Date,
  answer: ParticipantAnswer,
  question: TurnTimes,
  audioSeconds: number | null,
  text: string | null,
): { startTime: number; endTime: number } {
  const latest = offsetAt(session, now);
  if (answer.endTime !== undefined && answer.endTime > latest + CLOCK_SLACK_SECONDS) {
    throw validationError([{ path: 'endTime', message: `must not be after now (${Math.floor(latest)} s into the session)` }]);
  }
  if (answer.startTime !== undefined && answer.startTime > latest + CLOCK_SLACK_SECONDS) {
    throw validationError([{ path: 'startTime', message: `must not be after now (${Math.floor(latest)} s into the session)` }]);
  }
  const endTime = Math.max(question.startTime, Math.min(answer.endTime ?? latest, latest));
  const spoken = Math.max(MIN_ANSWER_SECONDS, audioSeconds ?? (text ? speakingSeconds(text) : 0));
  const typedAfterQuestion = audioSeconds === null && question.endTime <= endTime - MIN_ANSWER_SECONDS;
  const estimated = typedAfterQuestion ? Math.max(question.endTime, endTime - spoken) : endTime - spoken;
  const startTime = Math.min(endTime, Math.max(question.startTime, answer.startTime ?? estimated));
  return { startTime, endTime };
}

/** When a turn was put and when it was done being said, in seconds on the session's clock. */
interface TurnTimes {
  startTime: number;
  endTime: number;
}

/** What the interviewer is told of the conversation before the answer being prepared. */
interface EarlierTurns {
  /** Every turn, oldest first; empty unless the interviewer reads the conversation. */
  conversation: ConversationTurn[];
  onQuestion: QuestionHistory;
}

/** The session as an answer is prepared with it (read with the rest: answerContext). */
export type AnsweringSession = Pick<
  Session,
  | 'id'
  | 'status'
  | 'consentRequired'
  | 'consent'
  | 'language'
  | 'voice'
  | 'scriptId'
  | 'scriptVersion'
  | 'startedAt'
  | 'questionIndex'
  | 'pending'
  | 'pendingUtteranceId'
  | 'followUpsAsked'
  | 'reAsked'
> & { organization: { id: string } };

/** What else of the session the one-statement write needs, and checks unchanged. */
export interface SessionSnapshot {
  nextSeq: number;
  /** As read (the statement compares it with the column as it is then). */
  activeSince: string | null;
  activeSeconds: number;
  maxDurationSeconds: number | null;
  /** A preview's bills nothing; every other session's hold is released when it finishes (as read: numeric text). */
  preview: boolean;
  holdCredits: string;
  /** The participant's answer just before the pending turn, for the answered turn's latency and cut-off. */
  previousAnswer: { id: string | null; speechEndedMs: number | null };
}

/** What an answer is prepared with. */
interface AnswerContext {
  session: AnsweringSession;
  snapshot: SessionSnapshot;
  /** The pending turn's times; null when the session has no pending turn. */
  answeredTurnTimes: TurnTimes | null;
  /** The value stored on the pending turn (a `confirm` turn's reads back the answer it checks). */
  answeredTurnValue: unknown;
  /** The whole conversation for an interviewer that reads it, else the AI's asking turns, oldest first. */
  turns: EarlierTurnRow[];
  scriptMedia: ScriptQuestionMedia[];
}

/** The AI turns that ask something of the current question: a probe must repeat none of them. */
const ASKING_KINDS: readonly UtteranceKind[] = ['question', 're_ask', 'follow_up'];

export interface EarlierTurnRow {
  speaker: 'ai' | 'participant';
  kind: UtteranceKind;
  text: string | null;
  questionId: string | null;
  probe: { pickedUp?: string | null } | null;
}

/**
 * Everything an answer is prepared with, in one read (answerContext): the invite's unfinished
 * session, its pending turn, its earlier turns and the script's question media. Null: no
 * unfinished session.
 */
export async function readAnswerContext(em: EntityManager, inviteId: string, wholeConversation: boolean): Promise<AnswerContext | null> {
  const row = await answerContext.first(em, { inviteId, wholeConversation });
  if (!row) return null;
  // The columns hold what the schema allows (check constraints; jsonb written from the schemas).
  return {
    session: {
      id: row.id,
      organization: { id: row.organization_id },
      status: row.status as Session['status'],
      consentRequired: row.consent_required,
      consent: row.consent as Session['consent'],
      language: row.language,
      voice: row.voice,
      scriptId: row.script_id,
      scriptVersion: row.script_version,
      // The ORM's connection leaves timestamps as text.
      startedAt: row.started_at === null ? null : new Date(row.started_at),
      questionIndex: row.question_index,
      pending: row.pending as Session['pending'],
      pendingUtteranceId: row.pending_utterance_id,
      followUpsAsked: row.follow_ups_asked,
      reAsked: row.re_asked,
    },
    snapshot: {
      nextSeq: row.next_seq,
      activeSince: row.active_since,
      activeSeconds: row.active_seconds,
      maxDurationSeconds: row.max_duration_seconds,
      preview: row.preview,
      holdCredits: row.hold_credits,
      previousAnswer: { id: row.previous_answer_id, speechEndedMs: row.previous_speech_ended_ms },
    },
    answeredTurnTimes:
      row.pending_start_time === null || row.pending_end_time === null ? null : { startTime: row.pending_start_time, endTime: row.pending_end_time },
    answeredTurnValue: row.pending_value,
    turns: row.turns as EarlierTurnRow[],
    scriptMedia: row.script_media as ScriptQuestionMedia[],
  };
}

/**
 * What the interviewer is told of the earlier turns: the whole conversation for an interviewer
 * that reads it, and for every interviewer the AI's asking turns on the current question (so no
 * probe repeats one or picks up the same words twice).
 */
export function earlierTurnsOn(turns: EarlierTurnRow[], questionId: string, wholeConversation: boolean): EarlierTurns {
  const onQuestion: QuestionHistory = { asked: [], pickedUp: [] };
  for (const turn of turns) {
    if (turn.speaker !== 'ai' || turn.questionId !== questionId || !ASKING_KINDS.includes(turn.kind)) continue;
    if (turn.text) onQuestion.asked.push(turn.text);
    if (turn.probe?.pickedUp) onQuestion.pickedUp.push(turn.probe.pickedUp);
  }
  const conversation = wholeConversation ? turns.map((turn) => ({ speaker: turn.speaker, text: turn.text ?? '', questionId: turn.questionId ?? null })) : [];
  return { conversation, onQuestion };
}

/**
 * The longest recording the pending turn can have: the time since its question was put, and the
 * clock slack. Browsers record an answer after its question arrives, so a longer one was not
 * recorded in this turn (an hour of silence uploaded seconds in): refused before it is stored or
 * transcribed, rather than kept and costing storage, recognition and the merge its full length.
 */
function longestRecording(session: Pick<Session, 'startedAt'>, pendingTurn: TurnTimes | null): number {
  return Math.max(0, offsetAt(session, new Date()) - (pendingTurn?.startTime ?? 0)) + CLOCK_SLACK_SECONDS;
}

/** Recognised from its bytes (415 for anything but webm, ogg, wav, mp3, m4a audio) and no longer than the turn allows (422). */
async function checkAnswerAudio(file: string, longestSeconds: number): Promise<AudioFacts> {
  const facts = await probeAudio(file);
  if (!facts) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'The audio must be WebM, Ogg, WAV, MP3 or M4A (recognised from its content).', {
      fields: [{ path: 'audio', message: 'is not a supported audio format' }],
    });
  }
  if (facts.durationSeconds !== null && facts.durationSeconds > longestSeconds) {
    const asked = Math.max(0, Math.floor(longestSeconds - CLOCK_SLACK_SECONDS));
    throw validationError([
      { path: 'audio', message: `lasts ${Math.round(facts.durationSeconds)} s, longer than this turn: its question was asked ${asked} s ago` },
    ]);
  }
  return facts;
}

/** A checked recording stored as a session file (its hash as the route computed it, when it did). */
async function storeAnswerAudio(
  services: SessionServices,
  session: Pick<AnsweringSession, 'id' | 'organization'>,
  recording: { file: string; sha256?: string | undefined },
  facts: AudioFacts,
): Promise<AudioAnswer> {
  const { file } = recording;
  const fileId = newId('fil');
  const storageKey = `sessions/${session.organization.id}/${session.id}/${fileId}`;
  const sha256 = recording.sha256 ?? (await sha256OfFile(file));
  const { size } = await services.storage.put(storageKey, createReadStream(file));
  return { fileId, storageKey, contentType: facts.contentType, size, sha256, durationSeconds: facts.durationSeconds };
}

/**
 * Speech-to-text for an audio answer without text; null text when there is no recognizer or it
 * heard nothing usable. `unheard`: the recognizer hears the interview's language and still made
 * nothing of it (a failure is not that: asking again would meet the same failure).
 */
async function transcribe(
  services: SessionServices,
  session: Pick<AnsweringSession, 'id' | 'language'>,
  question: Pick<InterviewPlan['questions'][number], 'type' | 'options' | 'scale'>,
  file: string,
  contentType: string,
  /** The audio replies to a confirmation of this question's answer. */
  confirming: boolean,
): Promise<{ text: string | null; confidence: number | null; unheard: boolean }> {
  const recognizer = services.speech.recognizer;
  if (!recognizer) return { text: null, confidence: null, unheard: false };
  try {
    const task = () =>
      recognizer.transcribe({
        file,
        contentType,
        language: session.language,
        hints: {
          questionType: question.type,
          ...(question.options ? { options: question.options } : {}),
          ...(question.scale ? { scale: question.scale } : {}),
          ...(confirming ? { confirming } : {}),
        },
      });
    // Only work on this machine's cores waits its turn; a provider is asked at once.
    const transcription = await (recognizer.runsLocally ? services.transcriptions.run(task) : task());
    const text = transcription?.text.trim() || null;
    return { text, confidence: text ? transcription!.confidence : null, unheard: text === null && recognizer.hears(session.language) };
  } catch (error) {
    // The interview goes on without text for this answer; the audio is kept.
    const reason = error instanceof SpeechRecognitionError ? error.reason : 'unexpected';
    services.logger.warn({ sessionId: session.id, recognizer: recognizer.name, reason }, 'speech-to-text failed; the answer is kept as audio only');
    return { text: null, confidence: null, unheard: false };
  }
}
