import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import type { TProbeLedger } from '../../shared/schemas/probes.js';
import type { TAnswerValue } from '../../shared/schemas/sessions.js';
import { SENTIMENTS } from '../../shared/schemas/transcripts.js';
import { Organization } from './organization.js';
import { Session } from './session.js';

const UTTERANCE_KINDS = ['question', 'follow_up', 're_ask', 'confirm', 'check_heard', 'closing', 'answer'] as const;

/** See HEARD_CHECKS in shared/schemas/transcripts.ts. */
const HEARD_CHECK_STATES = ['unclear', 'confirmed', 'corrected'] as const;
export type UtteranceKind = (typeof UTTERANCE_KINDS)[number];

/**
 * One turn of the conversation, as it happened: the AI's questions, follow-ups, re-asks,
 * confirmations and closing, and the participant's answers (typed, or spoken: `audioFileId`, with `text` null when
 * nothing could transcribe it). The transcript is generated from these rows.
 */
export const SessionUtterance = defineEntity({
  name: 'SessionUtterance',
  tableName: 'session_utterances',
  uniques: [{ properties: ['session', 'seq'] }],
  indexes: [
    {
      name: 'session_utterances_search_vector_index',
      expression: 'create index "session_utterances_search_vector_index" on "session_utterances" using gin ("search_vector")',
    },
  ],
  properties: {
    id: p.string().primary().columnType('text'),
    organization: () => p.manyToOne(Organization).deleteRule('cascade').index(),
    session: () => p.manyToOne(Session).deleteRule('cascade'),
    seq: p.integer(),
    speaker: p.enum(['ai', 'participant'] as const),
    kind: p.enum([...UTTERANCE_KINDS]),
    text: p.string().columnType('text').nullable(),
    questionId: p.string().columnType('text').nullable(),
    /**
     * Participant answers to structured questions: the value this answer settled (null: unreadable,
     * or not yet settled: an unsure answer's value is on the confirmation's reply that took it).
     * `confirm` turns: the value being read back for a yes or no. `check_heard` turns: the heard text read back.
     */
    value: p.json<TAnswerValue>().nullable(),
    /** Seconds from the session's start. */
    startTime: p.float().columnType('double precision'),
    endTime: p.float().columnType('double precision'),
    confidence: p.float().columnType('double precision').nullable(),
    /**
     * Participant answers heard with low speech-recognition confidence (heard-check.ts): `unclear`
     * until the participant confirmed (`confirmed`) or corrected (`corrected`) the text; null for
     * answers heard surely, typed, or without text.
     */
    heardCheck: p.enum([...HEARD_CHECK_STATES]).nullable(),
    /** A corrected answer: the recognised text the participant's correction replaced. */
    heardAs: p.string().columnType('text').nullable(),
    audioFileId: p.string().columnType('text').nullable(),
    /** AI turns: the interviewer that worded it (`builtin`, `llm`) or `engine` for the engine's own rules. */
    decidedBy: p.string().columnType('text').nullable(),
    /** `follow_up` turns (Migration20261129010000ProbeLedger): why the probe was asked and the participant's words it picked up; null on every other turn and on follow-ups recorded before. */
    probe: p.json<TProbeLedger>().nullable(),
    /** Written once by the transcript job (null before it ran, and for utterances without text). */
    sentiment: p.enum([...SENTIMENTS]).nullable(),
    /** -1 (negative) to 1 (positive). */
    sentimentScore: p.float().columnType('double precision').nullable(),
    /** A researcher's label (sentimentOverrides.set): what every reader shows instead of `sentiment`, which stays as analysed. */
    sentimentOverride: p.enum([...SENTIMENTS]).nullable(),
    sentimentOverriddenAt: p.datetime(3).nullable(),
    sentimentOverriddenBy: p.json<{ kind: 'member' | 'api_key'; id: string; name: string }>().nullable(),
    /** Full-text search (Migration20261126110000TranscriptSearch): set by its trigger, never through the ORM. */
    searchLanguage: p.string().columnType('text').default('simple').lazy().hidden(),
    /** Full-text search: generated from `text` in `search_language`, so a redaction re-indexes the row itself. */
    searchVector: p
      .string()
      .columnType('tsvector')
      .lazy()
      .hidden()
      .generated(
        `(setweight(to_tsvector(case "search_language" when 'english' then 'english'::regconfig when 'dutch' then 'dutch'::regconfig when 'german' then 'german'::regconfig when 'french' then 'french'::regconfig when 'spanish' then 'spanish'::regconfig else 'simple'::regconfig end, coalesce("text", '')), case when "speaker" = 'participant' then 'A'::"char" else 'D'::"char" end)) stored`,
      )
      .nullable()
      // Optional when creating a row (never written: PostgreSQL generates it).
      .default(null),
    keywords: p.json<string[]>().nullable(),
    /** A participant's answer written in another language than the interview's (franc); null otherwise. */
    detectedLanguage: p.string().columnType('text').nullable(),
    // Turn-taking (Migration20261128010000TurnTaking): times on the participant's clock as the interview page reported them.
    /** Participant answers: when their last speech of the answer ended. */
    speechEndedAt: p.datetime(3).nullable(),
    /** Participant answers: when the page ended the turn (or the participant sent it). */
    endOfTurnAt: p.datetime(3).nullable(),
    /** Participant answers: ended by the participant (button, typing), not by the end-of-turn rule. */
    manualEnd: p.boolean().nullable(),
    /** Participant answers: they went on speaking within CUT_OFF_WINDOW_MS after the page ended the turn (reported with the next answer). */
    cutOff: p.boolean().nullable(),
    /** AI turns: when their audio started playing; null also when it never played. */
    audioStartedAt: p.datetime(3).nullable(),
    /** AI turns: the participant spoke over it and its audio was stopped. */
    bargeIn: p.boolean().nullable(),
    /** AI turns: `audioStartedAt` minus the `speechEndedAt` of the answer before it, when both are known. */
    latencyMs: p.integer().nullable(),
    /** AI turns: the server's time transcribing the answer that led to it (audio answers without the browser's text). */
    recognitionMs: p.integer().nullable(),
    /** AI turns: the interviewer's time choosing or wording it. */
    interviewerMs: p.integer().nullable(),
    /** AI turns: time to the first byte of its speech, when its audio link was first fetched. */
    synthesisMs: p.integer().nullable(),
    createdAt: p.datetime(3).onCreate(() => new Date()),
  },
});

export type SessionUtterance = InferEntity<typeof SessionUtterance>;
