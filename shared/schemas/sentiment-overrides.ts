import { z } from 'zod';
import { ZPathId, ZTimestamp } from './common.js';
import { ZAuditActor, ZAuditReason, ZTranscriptAuditEntry } from './redactions.js';
import { SENTIMENTS } from './transcripts.js';

/** `sentiment: null` clears the override: the analysis' own label shows again. */
export const ZSetSentimentOverrideInput = z.strictObject({
  sessionId: ZPathId,
  utteranceId: ZPathId,
  sentiment: z.enum(SENTIMENTS).nullable(),
  reason: ZAuditReason.optional(),
});
export type TSetSentimentOverrideInput = z.infer<typeof ZSetSentimentOverrideInput>;

/** One utterance's sentiment: the analysis' label, the override, and what readers show (the override when set). */
export const ZUtteranceSentiment = z.object({
  utteranceId: z.string(),
  analyzed: z.enum(SENTIMENTS).nullable(),
  override: z.enum(SENTIMENTS).nullable(),
  effective: z.enum(SENTIMENTS).nullable(),
  overriddenAt: ZTimestamp.nullable(),
  overriddenBy: ZAuditActor.nullable(),
});
export type TUtteranceSentiment = z.infer<typeof ZUtteranceSentiment>;

export const ZSentimentOverride = ZUtteranceSentiment.extend({
  sessionId: z.string(),
  /** false: the override already was this value; nothing was logged. */
  changed: z.boolean(),
  /** The session's overall sentiment, recomputed with the override. */
  sessionSentiment: z.object({ overall: z.enum(SENTIMENTS), score: z.number() }).nullable(),
  entry: ZTranscriptAuditEntry.nullable(),
});
export type TSentimentOverride = z.infer<typeof ZSentimentOverride>;

export const ZListSentimentOverridesInput = z.strictObject({ sessionId: ZPathId });
export const ZSentimentOverrideList = z.object({
  /** Utterances with an override now, in conversation order. */
  overrides: z.array(ZUtteranceSentiment),
  /** Every change, oldest first. */
  history: z.array(ZTranscriptAuditEntry),
});
export type TSentimentOverrideList = z.infer<typeof ZSentimentOverrideList>;
