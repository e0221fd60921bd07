import { z } from 'zod';
import { ZPathId } from './common.js';

/** How many sessions one summary reads: the ids given, or a campaign's most recently started ones. */
export const SUMMARY_LIMITS = { maxSessions: 200, maxThemes: 6, maxQuotesPerTheme: 3 } as const;

const ZInstant = z.iso.datetime({ offset: true });

/**
 * The sessions to summarize: `sessionIds` (1 to 200), or `campaignId` with an optional window on
 * the session start (the newest 200 sessions with participant answers in it; `capped` says when
 * there were more).
 */
export const ZCreateSummaryInput = z
  .strictObject({
    sessionIds: z.array(ZPathId).min(1).max(SUMMARY_LIMITS.maxSessions, `at most ${SUMMARY_LIMITS.maxSessions} sessions`).optional(),
    campaignId: ZPathId.optional(),
    from: ZInstant.optional().meta({ description: 'With campaignId: sessions started at or after this time.' }),
    to: ZInstant.optional().meta({ description: 'With campaignId: sessions started before this time.' }),
  })
  .superRefine((input, ctx) => {
    if ((input.sessionIds === undefined) === (input.campaignId === undefined)) {
      ctx.addIssue({ code: 'custom', path: input.sessionIds ? ['campaignId'] : ['sessionIds'], message: 'give either sessionIds or campaignId' });
    }
    if (input.sessionIds && (input.from || input.to)) {
      ctx.addIssue({ code: 'custom', path: [input.from ? 'from' : 'to'], message: 'only with campaignId' });
    }
    if (input.from && input.to && Date.parse(input.from) >= Date.parse(input.to)) {
      ctx.addIssue({ code: 'custom', path: ['to'], message: 'must be after from' });
    }
  });
export type TCreateSummaryInput = z.infer<typeof ZCreateSummaryInput>;

export const ZSummaryQuote = z.object({
  sessionId: z.string(),
  utteranceId: z.string(),
  text: z.string().meta({ description: "The participant's words (a sentence or the whole answer), PII replaced by [EMAIL REDACTED]-style markers." }),
});
export type TSummaryQuote = z.infer<typeof ZSummaryQuote>;

export const ZSummaryTheme = z.object({
  title: z.string(),
  sessionCount: z.number().int().meta({ description: 'Sessions in which participants spoke about it.' }),
  quotes: z
    .array(ZSummaryQuote)
    .meta({ description: `1 to ${SUMMARY_LIMITS.maxQuotesPerTheme} representative quotes, from different sessions where there are.` }),
});
export type TSummaryTheme = z.infer<typeof ZSummaryTheme>;

export const SUMMARY_METHODS = ['llm', 'extractive'] as const;

export const ZSummary = z.object({
  method: z
    .enum(SUMMARY_METHODS)
    .meta({ description: '`llm` when LLM_BASE_URL is configured and the model answered usably; `extractive` (built in, no network) otherwise.' }),
  fallbackReason: z.string().nullable().meta({
    description: 'Why the configured LLM was not used (`timeout`, `http_status`, `invalid_answer`, …); null when it was, or when none is configured.',
  }),
  summary: z.string().meta({ description: 'A short paragraph; empty when no session had participant answers.' }),
  themes: z.array(ZSummaryTheme).meta({ description: `Up to ${SUMMARY_LIMITS.maxThemes}, the most widespread first.` }),
  sessionCount: z.number().int().meta({ description: 'Sessions summarized: those with participant answers.' }),
  excludedLowConfidence: z.number().int().meta({
    description:
      'Participant answers of these sessions left out because they were heard with low confidence and never confirmed or corrected (`lowConfidence` in the transcript).',
  }),
  capped: z.boolean().meta({ description: `campaignId only: more than ${SUMMARY_LIMITS.maxSessions} sessions matched; the newest were summarized.` }),
  generatedAt: z.string(),
});
export type TSummary = z.infer<typeof ZSummary>;
