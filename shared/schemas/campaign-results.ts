import { z } from 'zod';
import { PAGE_LIMITS, ZPage, ZPathId, ZTimestamp } from './common.js';
import { QUESTION_TYPES } from './scripts.js';
import { COMPLETION_STATUSES, SESSION_STATUSES } from './sessions.js';
import { SENTIMENTS } from './transcripts.js';

/**
 * A campaign's results as the dashboard and stakeholder links show them (issue 31): the
 * completion funnel, every structured question as counts, every open question with how many
 * answered and the newest answers, the participants' feedback, for the
 * sessions a segment filter keeps. Preview sessions are never counted.
 */

/** How a session stands for the filter: its completion status, or `unfinished` while it can go on. */
export const RESULTS_COMPLETION_FILTERS = ['completed', 'timed_out', 'abandoned', 'unfinished'] as const;

export const ZResultsFilter = z
  .strictObject({
    /** Invite metadata (copied to the session) key → value; every pair must match (values compared as text). */
    segment: z.record(z.string().min(1).max(40), z.string().max(500)).optional(),
    language: z.string().min(2).max(35).optional(),
    /** Sessions created at or after / before these times. */
    from: z.iso.datetime({ offset: true }).optional(),
    to: z.iso.datetime({ offset: true }).optional(),
    completion: z.enum(RESULTS_COMPLETION_FILTERS).optional(),
  })
  .refine((filter) => !filter.from || !filter.to || Date.parse(filter.from) < Date.parse(filter.to), { message: 'must be after from', path: ['to'] })
  .meta({ id: 'ResultsFilter' });
export type TResultsFilter = z.infer<typeof ZResultsFilter>;

export const ZCampaignResultsInput = z.strictObject({ campaignId: ZPathId, filter: ZResultsFilter.optional() });
export type TCampaignResultsInput = z.infer<typeof ZCampaignResultsInput>;

export const ZResultsFunnel = z.object({
  /**
   * Invites of the campaign the filter keeps (segment on the invite's metadata, language, created
   * in the window; cancelled ones only when they were started), plus the invites of every kept
   * session, so `invited` is never below the sessions it led to. With a completion filter: only
   * the invites of kept sessions.
   */
  invited: z.number().int(),
  /** Sessions the filter keeps (the participant opened the interview). */
  started: z.number().int(),
  /** Finished with every question asked (`completion_status` completed). */
  completed: z.number().int(),
  abandoned: z.number().int(),
  /** Finished because the maximum duration ran out. */
  timedOut: z.number().int(),
  /** Created, in progress or paused: may still finish. */
  inProgress: z.number().int(),
});

/** One answer value and how many sessions gave it (a rating's number, `yes`/`no`, or an option's words). */
export const ZAnswerCount = z.object({ value: z.string(), count: z.number().int() });

/** A participant's answer to an open question, in their words, and the utterance it is (to open the session at that moment). */
export const ZOpenAnswerQuote = z.object({ sessionId: z.string(), utteranceId: z.string(), text: z.string() });

export const ZQuestionResult = z.object({
  questionId: z.string(),
  text: z.string(),
  type: z.enum(QUESTION_TYPES),
  /** Sessions that reached the question with a readable value; open questions: sessions with an answer in words. */
  answered: z.number().int(),
  /** Sessions asked the question whose answer could not be read (value null; open: spoken answers nothing could transcribe). */
  unreadable: z.number().int(),
  /** In the script's order: every scale point (rating), yes then no, every option then other values. Open questions: empty. */
  counts: z.array(ZAnswerCount),
  rating: z
    .object({
      min: z.number().int(),
      max: z.number().int(),
      mean: z.number().nullable(),
      /** Net Promoter Score (-100..100) where the scale is 0–10; null otherwise or with no answer. */
      nps: z.number().nullable(),
    })
    .nullable(),
  /**
   * Open questions: the newest answers, at most 5, one per session (its longest answer to the
   * question, so a probe's "ok" never stands for a participant who went on to say more), newest
   * first. Structured questions: empty.
   */
  quotes: z.array(ZOpenAnswerQuote),
});
export type TQuestionResult = z.infer<typeof ZQuestionResult>;

export const ZFeedbackResults = z.object({
  count: z.number().int(),
  /** Mean of each 1–5 rating over the feedback that gave it; null when none did. */
  overall: z.number().nullable(),
  easeOfUse: z.number().nullable(),
  audioQuality: z.number().nullable(),
  questionClarity: z.number().nullable(),
  wouldRecommend: z.object({ yes: z.number().int(), no: z.number().int() }),
  /** Newest first, at most 50: comments and technical issues with the session they came from. */
  comments: z.array(
    z.object({
      sessionId: z.string(),
      participant: z.string().nullable(),
      overallRating: z.number().int().nullable(),
      comments: z.string().nullable(),
      technicalIssues: z.string().nullable(),
      submittedAt: ZTimestamp,
    }),
  ),
});

export const ZCampaignResults = z.object({
  campaignId: z.string(),
  /** The filter as applied (echoed so two side-by-side panels say what each shows). */
  filter: ZResultsFilter,
  /** Sessions the filter keeps (preview sessions never count). */
  sessionCount: z.number().int(),
  funnel: ZResultsFunnel,
  questions: z.array(ZQuestionResult),
  feedback: ZFeedbackResults,
  /** Invite metadata keys seen on the campaign's sessions with up to 50 values each, for the segment picker. */
  segmentKeys: z.array(z.object({ key: z.string(), values: z.array(z.string()) })),
  languages: z.array(z.string()),
});
export type TCampaignResults = z.infer<typeof ZCampaignResults>;

export const ZCampaignResultSessionsInput = ZCampaignResultsInput.extend({
  limit: z.number().int().min(1).max(PAGE_LIMITS.maxLimit).default(PAGE_LIMITS.defaultLimit),
  offset: z.number().int().min(0).max(2_147_483_647).default(0),
});
export type TCampaignResultSessionsInput = z.infer<typeof ZCampaignResultSessionsInput>;

/** One row of the results page's session list: who, how it stands, and the segment it falls in. */
export const ZResultsSession = z.object({
  id: z.string(),
  /** The participant's name, else email; null for an anonymous share-link respondent. */
  participant: z.string().nullable(),
  status: z.enum(SESSION_STATUSES),
  completionStatus: z.enum(COMPLETION_STATUSES).nullable(),
  language: z.string(),
  createdAt: ZTimestamp,
  startedAt: ZTimestamp.nullable(),
  /** Seconds in progress, pauses excluded. */
  duration: z.number().int(),
  sentiment: z.enum(SENTIMENTS).nullable(),
  /** The invite metadata copied on the session, values as text. */
  segment: z.record(z.string(), z.string()),
});
export type TResultsSession = z.infer<typeof ZResultsSession>;

export const ZResultsSessionPage = ZPage(ZResultsSession);
export type TResultsSessionPage = z.infer<typeof ZResultsSessionPage>;
