import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import type { TCompletionStatus, TConsent, TDevice, TParsedAnswer, TTurnKind } from '../../shared/schemas/sessions.js';
import { COMPLETION_STATUSES, SESSION_STATUSES, TURN_KINDS } from '../../shared/schemas/sessions.js';
import { SENTIMENTS, TRANSCRIPT_NONE_REASONS } from '../../shared/schemas/transcripts.js';
import { timestampProperties } from './base.js';
import { Campaign } from './campaign.js';
import { Invite } from './invite.js';
import { Organization } from './organization.js';

/** Where the conversation stands: which question, and what was already asked on it. */
export type InterviewPending = TTurnKind;

/**
 * What a finished session was billed (the `interview.completed` payload carries it): minutes,
 * the plan's free minutes it used, what was charged, and what the balance could not cover.
 */
export interface SessionBilling {
  totalMinutes: number;
  freeMinutesApplied: number;
  billableMinutes: number;
  amountCredits: number;
  chargedCredits: number;
  owedCredits: number;
  plan: string;
  pricePerMinuteCredits: number;
}

/**
 * One interview of one invite, on the script version pinned at its start. The conversation
 * itself is in `session_utterances`; this row holds the state the engine needs to take the next
 * turn, the clock (active seconds, pauses excluded) and the credit hold.
 */
export const Session = defineEntity({
  name: 'Session',
  tableName: 'sessions',
  indexes: [
    { properties: ['campaign', 'createdAt'] },
    { properties: ['organization', 'completedAt'] },
    // Two starts racing on one token cannot both open a session: the second finds the first.
    {
      name: 'sessions_one_unfinished_per_invite',
      expression: `create unique index "sessions_one_unfinished_per_invite" on "sessions" ("invite_id") where "status" in ('created', 'in_progress', 'paused')`,
    },
  ],
  properties: {
    id: p.string().primary().columnType('text'),
    organization: () => p.manyToOne(Organization).deleteRule('cascade'),
    campaign: () => p.manyToOne(Campaign).deleteRule('cascade'),
    invite: () => p.manyToOne(Invite).deleteRule('cascade').index(),
    scriptId: p.string().columnType('text'),
    scriptVersion: p.integer(),
    /** A "Preview as participant" session (its campaign's `preview`): left out of results, exports, searches, webhooks and billing. */
    preview: p.boolean().default(false),
    status: p.enum([...SESSION_STATUSES]),
    completionStatus: p.enum([...COMPLETION_STATUSES]).nullable(),
    language: p.string().columnType('text'),
    /** The voice of the AI's spoken turns, chosen at start (the SDK's, else the campaign's, else the script's); null: the synthesizer's default. */
    voice: p.string().columnType('text').nullable(),
    participantEmail: p.string().columnType('text').nullable(),
    participantName: p.string().columnType('text').nullable(),
    device: p.json<TDevice>().nullable(),
    metadata: p.json<Record<string, string | number | boolean>>(),
    consentRequired: p.boolean(),
    consent: p.json<TConsent>().nullable(),
    pauseReason: p.string().columnType('text').nullable(),
    startedAt: p.datetime(3).nullable(),
    completedAt: p.datetime(3).nullable(),
    lastActivityAt: p.datetime(3),
    /** While in progress: since when (the clock's running part); null when created, paused or finished. */
    activeSince: p.datetime(3).nullable(),
    /** Seconds in progress before `activeSince` (earlier stretches between pauses). */
    activeSeconds: p.float().columnType('double precision').default(0),
    /** Whole seconds in progress; kept up to date at every turn and transition, final once finished. */
    durationSeconds: p.integer().default(0),
    maxDurationSeconds: p.integer().nullable(),
    totalQuestions: p.integer(),
    questionsAnswered: p.integer().default(0),
    answers: p.json<TParsedAnswer[]>(),
    /** Index (in asking order) of the question the pending turn belongs to. */
    questionIndex: p.integer().default(0),
    pending: p.enum([...TURN_KINDS]).nullable(),
    pendingUtteranceId: p.string().columnType('text').nullable(),
    followUpsAsked: p.integer().default(0),
    reAsked: p.boolean().default(false),
    /** Sequence number the next utterance takes. */
    nextSeq: p.integer().default(0),
    holdCredits: p.decimal('number').precision(14).scale(4).default(0),
    billing: p.json<SessionBilling>().nullable(),
    transcriptGeneratedAt: p.datetime(3).nullable(),
    /** Set by the transcript job: `ready`, or `none` for a session that has nothing to transcribe (see `transcriptNoneReason`). */
    transcriptStatus: p.enum(['ready', 'none'] as const).nullable(),
    transcriptNoneReason: p.enum([...TRANSCRIPT_NONE_REASONS]).nullable(),
    /** Who analysed the transcript (sentiment, keywords): `builtin` or `llm`. */
    analyzedBy: p.string().columnType('text').nullable(),
    /** From the participant's utterances in the transcript. */
    sentiment: p.enum([...SENTIMENTS]).nullable(),
    sentimentScore: p.float().columnType('double precision').nullable(),
    insightsGeneratedAt: p.datetime(3).nullable(),
    completionAnnouncedAt: p.datetime(3).nullable(),
    /** When the recordings (the tracks and both merged) were stored (session__prepare_files). */
    filesPreparedAt: p.datetime(3).nullable(),
    /** When the exports (transcript JSON, PDF report) were stored (session__prepare_exports). */
    exportsPreparedAt: p.datetime(3).nullable(),
    ...timestampProperties,
  },
});

export type Session = InferEntity<typeof Session>;
export type { TCompletionStatus };
