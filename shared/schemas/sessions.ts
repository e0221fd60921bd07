import { z } from 'zod';
import { ZPage, ZPaginationQuery, ZPathId, ZSortOrder, ZTimestamp } from './common.js';
import { QUESTION_TYPES } from './scripts.js';
import { ZTurnTakingSummary, ZVoiceTiming } from './turn-taking.js';

/**
 * created (token opened; waiting for consent where the campaign requires it) → in_progress ⇄
 * paused → completed (every question asked, or maxDuration reached) | abandoned (the participant
 * left, declined consent, or was idle for SESSION_ABANDON_AFTER seconds).
 */
export const SESSION_STATUSES = ['created', 'in_progress', 'paused', 'completed', 'abandoned'] as const;
export type TSessionStatus = (typeof SESSION_STATUSES)[number];

/** Statuses from which a session can still go on; at most one such session per invite. */
export const UNFINISHED_SESSION_STATUSES = ['created', 'in_progress', 'paused'] as const satisfies readonly TSessionStatus[];

/** How a finished session ended: `timed_out` is a completed session cut by `maxDuration`. */
export const COMPLETION_STATUSES = ['completed', 'timed_out', 'abandoned'] as const;
export type TCompletionStatus = (typeof COMPLETION_STATUSES)[number];

export const CONSENT_TYPES = ['recording', 'data_processing', 'all'] as const;
export type TConsentType = (typeof CONSENT_TYPES)[number];

export const SESSION_SORT_FIELDS = ['createdAt', 'completedAt', 'duration'] as const;

/** What a participant answered to a rating, yes_no or multiple_choice question (design.md "Parsed answers"). */
export const ZAnswerValue = z.union([z.number(), z.boolean(), z.string()]).nullable();
export type TAnswerValue = z.infer<typeof ZAnswerValue>;

export const ZParsedAnswer = z
  .object({
    questionId: z.string(),
    value: ZAnswerValue.meta({ description: 'The rating, true/false, or the option as the script words it; null when the answer could not be read.' }),
    utteranceId: z.string().nullable().meta({ description: 'The participant utterance the value comes from.' }),
    confidence: z.number().min(0).max(1).nullable().optional().meta({
      description:
        "How sure the service is of `value`, 0–1: from how the answer named it (the option's own words, a synonym, a paraphrase, a position), hedges and the speech recogniser's confidence; a value confirmed by the participant carries the confidence of the reply. Null when `value` is null; absent on answers recorded before it was introduced.",
    }),
  })
  .meta({ id: 'ParsedAnswer' });
export type TParsedAnswer = z.infer<typeof ZParsedAnswer>;

export const ZDevice = z
  .strictObject({
    browser: z.string().max(100),
    os: z.string().max(100),
    type: z.string().max(40).meta({ description: 'desktop, mobile, tablet, tv or unknown.' }),
  })
  .meta({ id: 'Device' });
export type TDevice = z.infer<typeof ZDevice>;

export const ZConsent = z
  .object({
    granted: z.boolean(),
    type: z.enum(CONSENT_TYPES),
    ip: z.string().nullable(),
    grantedAt: ZTimestamp.meta({ description: 'When the consent (or its refusal) was recorded.' }),
  })
  .meta({ id: 'Consent' });
export type TConsent = z.infer<typeof ZConsent>;

export const ZSessionSentiment = z.object({ overall: z.enum(['positive', 'neutral', 'negative']), score: z.number() }).meta({ id: 'SessionSentiment' });

/** The session record of the API (`GET /v1/sessions/{id}`). */
export const ZSession = z
  .object({
    id: z.string().meta({ example: 'ses_4fS0m3Ex4mpl3Id0000000' }),
    campaignId: z.string(),
    inviteId: z.string(),
    scriptId: z.string(),
    scriptVersion: z.number().int().meta({ description: 'The published script version the session follows, pinned at its start.' }),
    status: z.enum(SESSION_STATUSES),
    completionStatus: z.enum(COMPLETION_STATUSES).nullable(),
    participant: z.object({ email: z.string().nullable(), name: z.string().nullable() }),
    startedAt: ZTimestamp.nullable().meta({ description: 'When the first question was asked.' }),
    completedAt: ZTimestamp.nullable().meta({ description: 'When the session finished (completed, timed out or abandoned).' }),
    duration: z.number().int().meta({ description: 'Seconds in progress, pauses excluded; final once finished.' }),
    questionsAnswered: z.number().int(),
    totalQuestions: z.number().int(),
    language: z.string(),
    sentiment: ZSessionSentiment.nullable().meta({ description: 'From the transcript; null until it exists.' }),
    device: ZDevice.nullable(),
    metadata: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).meta({ description: "Copied from the invite's metadata at the start." }),
    pauseReason: z.string().nullable(),
    consent: ZConsent.nullable(),
    answers: z.array(ZParsedAnswer),
    turnTaking: ZTurnTakingSummary.nullable().meta({
      description:
        "Voice turns: latency from the end of the participant's speech to the AI's audio (p50/p95, ms), cut-offs and barge-ins; null when no answer was given by voice.",
    }),
    createdAt: ZTimestamp,
    updatedAt: ZTimestamp,
  })
  .meta({ id: 'Session' });
export type TSession = z.infer<typeof ZSession>;

export const ZSessionIdInput = z.strictObject({ sessionId: ZPathId });

export const ZListSessionsInput = z.strictObject({
  campaignId: ZPathId,
  status: z.enum(SESSION_STATUSES).optional(),
  from: z.iso.datetime({ offset: true }).optional().meta({ description: 'Sessions created at or after this time.' }),
  to: z.iso.datetime({ offset: true }).optional().meta({ description: 'Sessions created before this time.' }),
  sort: z.enum(SESSION_SORT_FIELDS).default('createdAt').meta({ description: 'Sort field (default createdAt); sessions without a value sort last.' }),
  order: ZSortOrder,
  ...ZPaginationQuery,
});
export type TListSessionsInput = z.infer<typeof ZListSessionsInput>;

export const ZSessionPage = ZPage(ZSession);

export const ZPauseSessionInput = z.strictObject({
  sessionId: ZPathId,
  reason: z.string().trim().min(1).max(500).optional().meta({ description: 'Recorded as pauseReason.' }),
});

export const ZConsentInput = z.strictObject({
  sessionId: ZPathId,
  granted: z.boolean(),
  type: z.enum(CONSENT_TYPES),
  ip: z.union([z.ipv4(), z.ipv6()]).optional().meta({ description: "The participant's address, for the audit record; default: the caller's address." }),
});
export type TConsentInput = z.infer<typeof ZConsentInput>;

// The participant API (design.md "Participant API"): what a browser holding an invite token sees.

export const ZTurnQuestion = z
  .object({
    type: z.enum(QUESTION_TYPES),
    options: z.array(z.string()).optional(),
    scale: z.object({ min: z.number().int(), max: z.number().int(), minLabel: z.string().optional(), maxLabel: z.string().optional() }).optional(),
  })
  .meta({ id: 'TurnQuestion' });

/** An image or audio clip shown with a question (script media uploaded with its `questionId`). */
export const ZTurnMedia = z
  .object({
    kind: z.enum(['image', 'audio']),
    contentType: z.string(),
    url: z.string().meta({ description: 'Signed link, opened without an API key while the session is unfinished (valid 12 hours from the response).' }),
    alt: z.string().nullable().meta({ description: 'Text alternative given at upload; null when none was.' }),
  })
  .meta({ id: 'TurnMedia' });
export type TTurnMedia = z.infer<typeof ZTurnMedia>;

/**
 * What a pending turn is: `question`, `follow_up`, `re_ask`, `confirm` (an unsure answer to a
 * rating, yes/no or multiple-choice question read back for a yes or no before it is taken), or
 * `check_heard` (a spoken answer heard with low confidence read back for the participant to
 * confirm or correct before it counts).
 */
export const TURN_KINDS = ['question', 'follow_up', 're_ask', 'confirm', 'check_heard'] as const;
export type TTurnKind = (typeof TURN_KINDS)[number];

/** The AI's next utterance, waiting for the participant's answer. */
export const ZTurn = z
  .object({
    utteranceId: z.string(),
    text: z.string(),
    questionId: z.string(),
    kind: z.enum(TURN_KINDS).meta({
      description:
        'A script question, a follow-up on it (answered in the participant\'s own words: `question.type` is then `open` whatever the question\'s type), the question asked again after an answer that could not be read, or a confirmation: an answer understood but not surely ("maybe a four?") read back in one short turn ("So that\'s a 4, is that right?"), answered yes or no (`question.type` is then `yes_no`) or with the value meant instead ("no, a three"); or `check_heard`: a spoken answer heard with low confidence, read back (`heard`) before it counts. Its reply: typed, the text that counts (`heard` unchanged confirms it, anything else corrects it); spoken, a yes ("that\'s right") confirms it and anything else is the answer said again (`question.type` is then `open`).',
    }),
    heard: z
      .string()
      .optional()
      .meta({ description: '`check_heard` turns only: the text heard, for the participant to confirm or correct (the page shows it in an editable box).' }),
    question: ZTurnQuestion,
    audioUrl: z.string().optional().meta({ description: 'Spoken form of the text, when a voice is configured.' }),
    media: z
      .array(ZTurnMedia)
      .optional()
      .meta({ description: "The script's images and audio clips for this turn's question, in upload order; absent when it has none." }),
  })
  .meta({ id: 'Turn' });
export type TTurn = z.infer<typeof ZTurn>;

/** What a participant may know of their own session: no customer metadata, no participant list. */
export const ZParticipantSession = z
  .object({
    id: z.string(),
    status: z.enum(SESSION_STATUSES),
    completionStatus: z.enum(COMPLETION_STATUSES).nullable(),
    language: z.string(),
    consentRequired: z.boolean().meta({ description: 'The campaign requires consent before the first question.' }),
    consent: ZConsent.omit({ ip: true }).nullable(),
    questionsAnswered: z.number().int(),
    totalQuestions: z.number().int(),
    duration: z.number().int(),
    startedAt: ZTimestamp.nullable(),
    completedAt: ZTimestamp.nullable(),
    createdAt: ZTimestamp,
  })
  .meta({ id: 'ParticipantSession' });
export type TParticipantSession = z.infer<typeof ZParticipantSession>;

/**
 * What a lifecycle action (pause, resume, heartbeat, consent) answers: the Session record for an
 * API key, the participant's view for their invite token (no customer metadata, no addresses).
 */
export const ZSessionView = z.union([ZSession, ZParticipantSession]).meta({ id: 'SessionView' });
export type TSessionView = z.infer<typeof ZSessionView>;

export const ZInterviewState = z
  .object({
    session: ZParticipantSession,
    turn: ZTurn.nullable().meta({ description: 'The question waiting for an answer; null before consent and once the interview is over.' }),
    closing: z.string().optional().meta({ description: "The interviewer's closing words, on the answer that completed the interview." }),
    heard: z
      .object({
        text: z.string().nullable().meta({ description: 'The transcript of a spoken answer (null: nothing could be made out), or the typed text.' }),
        lowConfidence: z.boolean().optional().meta({
          description:
            'true: heard with low speech-recognition confidence; the answer does not count yet and the pending turn (`check_heard`) asks the participant to confirm or correct it.',
        }),
      })
      .optional()
      .meta({ description: 'What the service took the answer to be, on the response to an answer: the page shows it (voice mode: "Heard: …").' }),
  })
  .meta({ id: 'InterviewState' });
export type TInterviewState = z.infer<typeof ZInterviewState>;

export const ZStartInterviewInput = z.strictObject({
  device: ZDevice.optional().meta({ description: 'Overrides what the User-Agent says (an app that knows better).' }),
  voice: z.string().min(1).max(64).optional().meta({
    description:
      "The SDK's `voice`: the voice of the AI's spoken turns, instead of the campaign's. Refused (422) when the service's speech synthesis has no such voice.",
  }),
});

const ZOffsetSeconds = z.number().min(0).max(86_400);

/** Optional guard against late retries: an answer naming another turn than the pending one is 409 TURN_ALREADY_ANSWERED. */
const ZAnsweredTurn = z.string().min(1).max(64).optional().meta({
  description: 'The `turn.utteranceId` this answers; a late retry of an earlier answer is then refused (409) instead of answering the next question.',
});

export const ZTextAnswerInput = z
  .strictObject({
    text: z.string().trim().min(1, 'must not be empty').max(10_000),
    startTime: ZOffsetSeconds.optional().meta({ description: 'Seconds from the session start when the participant began answering.' }),
    endTime: ZOffsetSeconds.optional(),
    confidence: z.number().min(0).max(1).optional().meta({ description: "The browser's own speech recognition confidence." }),
    utteranceId: ZAnsweredTurn,
    voiceTiming: ZVoiceTiming.optional().meta({
      description:
        "Voice mode: when the participant stopped speaking and the page ended the turn, when the AI turn this answers started playing, barge-in and cut-off. Makes the session's `turnTaking` figures.",
    }),
  })
  .refine((input) => input.startTime === undefined || input.endTime === undefined || input.startTime <= input.endTime, {
    message: 'must not be after endTime',
    path: ['startTime'],
  });
export type TTextAnswerInput = z.infer<typeof ZTextAnswerInput>;

/**
 * Multipart fields that may come with `audio` (all strings on the wire; `voiceTiming` is the
 * VoiceTiming object as JSON text, parsed by the route before these are checked).
 */
export const ZAudioAnswerFields = z.strictObject({
  text: z.string().trim().min(1).max(10_000).optional(),
  startTime: z.coerce.number().min(0).max(86_400).optional(),
  endTime: z.coerce.number().min(0).max(86_400).optional(),
  confidence: z.coerce.number().min(0).max(1).optional(),
  utteranceId: ZAnsweredTurn,
  voiceTiming: ZVoiceTiming.optional(),
});

/**
 * What a session file is. `audio`: one answer's recording. The session's recordings, each on the
 * session's timeline (a player's position is the transcript's time): `merged_audio` (what was
 * heard: the answers and the AI's spoken turns), `participant_audio` (the answers only, silence
 * where the AI spoke) and `ai_audio` (the AI's turns only; absent without server speech synthesis).
 * `upload`: a file added through the API; `export`: the transcript JSON and the PDF report.
 */
export const SESSION_FILE_KINDS = ['audio', 'merged_audio', 'participant_audio', 'ai_audio', 'upload', 'export'] as const;
export type TSessionFileKind = (typeof SESSION_FILE_KINDS)[number];

export const ZSessionFile = z
  .object({
    id: z.string().meta({ example: 'fil_4fS0m3Ex4mpl3Id0000000' }),
    sessionId: z.string(),
    kind: z.enum(SESSION_FILE_KINDS),
    name: z.string(),
    contentType: z.string(),
    size: z.number().int().meta({ description: 'Bytes.' }),
    durationSeconds: z.number().nullable().meta({ description: 'Audio only.' }),
    url: z.string().meta({ description: 'Signed download link, valid 1 hour from the response.' }),
    urlExpiresAt: ZTimestamp,
    createdAt: ZTimestamp,
  })
  .meta({ id: 'SessionFile' });
export type TSessionFile = z.infer<typeof ZSessionFile>;

export const ZListSessionFilesInput = z.strictObject({ sessionId: ZPathId, ...ZPaginationQuery });
export type TListSessionFilesInput = z.infer<typeof ZListSessionFilesInput>;
export const ZSessionFilePage = ZPage(ZSessionFile);

/** Post-interview feedback (the spec's Feedback fields, as Design A's payload names them). */
export const ZFeedbackInput = z.strictObject({
  overall_rating: z.number().int().min(1).max(5).nullable().optional(),
  ease_of_use_rating: z.number().int().min(1).max(5).nullable().optional(),
  audio_quality_rating: z.number().int().min(1).max(5).nullable().optional(),
  question_clarity_rating: z.number().int().min(1).max(5).nullable().optional(),
  comments: z.string().trim().max(5000).nullable().optional(),
  technical_issues: z.string().trim().max(5000).nullable().optional(),
  would_recommend: z.boolean().nullable().optional(),
});
export type TFeedbackInput = z.infer<typeof ZFeedbackInput>;

export const ZFeedback = z
  .object({
    id: z.string(),
    overall_rating: z.number().int().nullable(),
    ease_of_use_rating: z.number().int().nullable(),
    audio_quality_rating: z.number().int().nullable(),
    question_clarity_rating: z.number().int().nullable(),
    comments: z.string().nullable(),
    technical_issues: z.string().nullable(),
    would_recommend: z.boolean().nullable(),
    submitted_at: ZTimestamp,
  })
  .meta({ id: 'Feedback' });
export type TFeedback = z.infer<typeof ZFeedback>;
