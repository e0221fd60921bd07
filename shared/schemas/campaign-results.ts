import { z } from 'zod';
import { ZPathId, ZTimestamp } from './common.js';
import { QUESTION_TYPES } from './scripts.js';

/**
 * A campaign's results as the dashboard and stakeholder links show them (issue 31): the
 * completion funnel, every structured question as counts, the participants' feedback, for the
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
  .meta({ id: 'ResultsFilter' });
export type TResultsFilter = z.infer<typeof ZResultsFilter>;

export const ZCampaignResultsInput = z.strictObject({ campaignId: ZPathId, filter: ZResultsFilter.optional() });
export type TCampaignResultsInput = z.infer<typeof ZCampaignResultsInput>;

export const ZResultsFunnel = z.object({
  /** Invites of the campaign (not filtered by segment when no invite matches the filter's keys: see `filtered`). */
  invited: z.number().int(),
  started: z.number().int(),
  completed: z.number().int(),
  abandoned: z.number().int(),
});

/** One answer value and how many sessions gave it (a rating's number, `yes`/`no`, or an option's words). */
export const ZAnswerCount = z.object({ value: z.string(), count: z.number().int() });

export const ZQuestionResult = z.object({
  questionId: z.string(),
  text: z.string(),
  type: z.enum(QUESTION_TYPES),
  /** Sessions that reached the question with a readable value. */
  answered: z.number().int(),
  /** Sessions asked the question whose answer could not be read (value null). */
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
