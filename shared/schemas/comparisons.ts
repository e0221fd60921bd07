import { z } from 'zod';
import { METADATA_LIMITS, ZLanguageTag, ZPathId } from './common.js';
import { COMPLETION_STATUSES } from './sessions.js';
import { STRUCTURED_QUESTION_TYPES } from './scripts.js';

/** How many segments one report compares. */
export const COMPARISON_LIMITS = { minSegments: 2, maxSegments: 6, maxMetadataFilters: 10 } as const;

const ZInstant = z.iso.datetime({ offset: true });

const segmentFilters = {
  from: ZInstant.optional().meta({ description: 'Sessions started at or after this time.' }),
  to: ZInstant.optional().meta({ description: 'Sessions started before this time.' }),
  completionStatus: z
    .array(z.enum(COMPLETION_STATUSES))
    .min(1)
    .max(COMPLETION_STATUSES.length)
    .optional()
    .meta({ description: 'Only sessions that ended this way (unfinished sessions have none, so they drop out).' }),
  metadata: z
    .record(z.string().min(1).max(METADATA_LIMITS.maxKeyLength), z.union([z.string().max(METADATA_LIMITS.maxStringValueLength), z.number(), z.boolean()]))
    .refine((value) => Object.keys(value).length <= COMPARISON_LIMITS.maxMetadataFilters, `at most ${COMPARISON_LIMITS.maxMetadataFilters} keys`)
    .optional()
    .meta({ description: 'key = value pairs the session\'s metadata (copied from its invite) must all hold; values compare by type (5 is not "5").' }),
  language: ZLanguageTag.optional().meta({ description: 'The interview language; `nl` also matches `nl-BE`.' }),
};

/**
 * One column of a comparison report: the sessions of a campaign that started (were asked their
 * first question), optionally narrowed. Every filter narrows; the same campaign may appear in
 * several segments with different filters.
 */
export const ZComparisonSegmentInput = z
  .strictObject({
    label: z
      .string()
      .trim()
      .min(1, 'must not be empty')
      .max(100, 'must be at most 100 characters')
      .optional()
      .meta({ description: "Shown for the segment; default: the campaign's name." }),
    campaignId: ZPathId,
    ...segmentFilters,
  })
  .refine((segment) => !segment.from || !segment.to || Date.parse(segment.from) < Date.parse(segment.to), { message: 'must be after from', path: ['to'] });
export type TComparisonSegmentInput = z.infer<typeof ZComparisonSegmentInput>;

export const ZCompareInput = z.strictObject({
  segments: z
    .array(ZComparisonSegmentInput)
    .min(COMPARISON_LIMITS.minSegments, `compare at least ${COMPARISON_LIMITS.minSegments} segments`)
    .max(COMPARISON_LIMITS.maxSegments, `compare at most ${COMPARISON_LIMITS.maxSegments} segments`),
});
export type TCompareInput = z.infer<typeof ZCompareInput>;

/** Share of a count, 0 to 1, rounded to 4 decimals; null when there is nothing to share. */
const ZShare = z.number().min(0).max(1).nullable();

const ZDurationStats = z.object({
  count: z.number().int().meta({ description: 'Completed sessions measured.' }),
  mean: z.number().nullable().meta({ description: 'Seconds, 1 decimal; null without completed sessions.' }),
  median: z.number().nullable().meta({ description: 'Seconds (interpolated, as PostgreSQL percentile_cont), 1 decimal.' }),
  p90: z.number().nullable().meta({ description: 'Seconds (interpolated), 1 decimal.' }),
});

const ZSentimentDistribution = z.object({
  positive: z.number().int(),
  neutral: z.number().int(),
  negative: z.number().int(),
  unrated: z.number().int().meta({ description: 'Participant utterances without a sentiment yet (transcript not generated).' }),
  shares: z.object({ positive: ZShare, neutral: ZShare, negative: ZShare }).meta({ description: 'Of the rated utterances.' }),
});

const ZAnswerCount = z.object({
  value: z.union([z.string(), z.number(), z.boolean()]).meta({ description: 'An option as the script words it, a rating, or true/false.' }),
  count: z.number().int(),
  share: ZShare.meta({ description: 'Of the readable answers to this question.' }),
});

/** What one segment answered to one structured question. */
export const ZQuestionDistribution = z.object({
  questionId: z.string(),
  text: z.string(),
  type: z.enum(STRUCTURED_QUESTION_TYPES),
  /** Rating questions: the scale; a 0–10 scale also gets `nps`. */
  scale: z.object({ min: z.number().int(), max: z.number().int() }).nullable(),
  answered: z.number().int().meta({ description: 'Sessions with a readable answer.' }),
  unreadable: z.number().int().meta({ description: 'Sessions whose answer could not be read (value null).' }),
  counts: z.array(ZAnswerCount).meta({
    description:
      'Every option (multiple_choice, in script order), every scale point (rating, min to max) or yes then no, zeros included; then any other value seen (an option an older script version had).',
  }),
  mean: z.number().nullable().meta({ description: 'Rating only: mean of the readable answers, 2 decimals.' }),
  nps: z
    .object({ promoters: z.number().int(), passives: z.number().int(), detractors: z.number().int(), score: z.number() })
    .nullable()
    .meta({ description: 'Ratings on a 0–10 scale only: promoters 9–10, detractors 0–6; score = %promoters − %detractors, −100 to 100, 1 decimal.' }),
});
export type TQuestionDistribution = z.infer<typeof ZQuestionDistribution>;

export const ZComparisonSegment = z.object({
  index: z.number().int().meta({ description: 'Position in the request.' }),
  label: z.string(),
  campaignId: z.string(),
  campaignName: z.string(),
  scriptId: z.string(),
  filters: z.object(segmentFilters).meta({ description: 'The filters as given.' }),
  sessions: z.object({
    started: z.number().int().meta({ description: 'Sessions that started (first question asked) and pass the filters.' }),
    completed: z.number().int().meta({ description: 'Of those, completed (completionStatus completed or timed_out).' }),
    timedOut: z.number().int(),
    abandoned: z.number().int(),
    inProgress: z.number().int().meta({ description: 'Not finished yet (in progress or paused).' }),
    completionRate: ZShare.meta({ description: 'completed / started, 4 decimals; null when none started.' }),
  }),
  duration: ZDurationStats,
  sentiment: ZSentimentDistribution,
  questions: z
    .array(ZQuestionDistribution)
    .meta({ description: "The structured questions of the script versions this segment's sessions followed (the published one when none), in script order." }),
});
export type TComparisonSegment = z.infer<typeof ZComparisonSegment>;

export const ZComparison = z.object({
  segments: z.array(ZComparisonSegment),
  /**
   * Every structured question of any segment, aligned by question id (first wording seen):
   * `segments` lists the indexes of the segments that have it. With one script all segments have
   * all; with different scripts only shared ids line up side by side.
   */
  questions: z.array(z.object({ questionId: z.string(), text: z.string(), type: z.enum(STRUCTURED_QUESTION_TYPES), segments: z.array(z.number().int()) })),
  sameScript: z.boolean().meta({ description: 'Every segment follows the same script.' }),
  generatedAt: z.string(),
});
export type TComparison = z.infer<typeof ZComparison>;
