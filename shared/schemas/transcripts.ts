import { z } from 'zod';
import { ZPathId, ZTimestamp } from './common.js';
import { ZRedactKinds } from './pii.js';
import { ZProbeLedger } from './probes.js';
import { ZAnswerValue } from './sessions.js';

/** Each query flag's default, for the boolean inputs of typed clients derived from a query (asTypedInput). */
const flagDefaults = new WeakMap<object, boolean>();

/** A boolean query parameter: `true`/`false` (also `1`/`0`); anything else is 400. */
function queryFlag(defaultValue: boolean, description: string) {
  const flag = z
    .stringbool({ truthy: ['true', '1'], falsy: ['false', '0'] })
    .default(defaultValue)
    .meta({ description: `${description} (\`true\` or \`false\`; default ${defaultValue}).` });
  flagDefaults.set(flag, defaultValue);
  return flag;
}

type QueryFlag = ReturnType<typeof queryFlag>;

/** A query's fields as typed clients (`/trpc`) send them: its flags as booleans with the same defaults, the others as they are. */
function asTypedInput<S extends z.ZodRawShape>(shape: S): { [K in keyof S]: S[K] extends QueryFlag ? z.ZodDefault<z.ZodBoolean> : S[K] } {
  return Object.fromEntries(
    Object.entries(shape).map(([key, schema]) => {
      const defaultValue = flagDefaults.get(schema);
      return [key, defaultValue === undefined ? schema : z.boolean().default(defaultValue)];
    }),
  ) as { [K in keyof S]: S[K] extends QueryFlag ? z.ZodDefault<z.ZodBoolean> : S[K] };
}

export const SENTIMENTS = ['positive', 'neutral', 'negative'] as const;
export type TSentiment = (typeof SENTIMENTS)[number];

export const TRANSCRIPT_FORMATS = ['json', 'text', 'srt', 'vtt'] as const;
export type TTranscriptFormat = (typeof TRANSCRIPT_FORMATS)[number];

export const SPEAKER_FILTERS = ['ai', 'participant', 'all'] as const;

/**
 * Speech recognised with a confidence below this is unsure: the participant is asked to confirm
 * or correct it before it counts, and until they do it is marked `lowConfidence` and left out of
 * insights and summaries. Chosen from measured figures (docs/interviews.md, "Answers heard with low confidence"):
 * pocketsphinx's mean word posterior on espeak-ng answers it got mostly right stays above it,
 * on those it got mostly wrong below; for OpenAI's recognisers (mean token probability) clear
 * speech scores well above it.
 */
export const LOW_SPEECH_CONFIDENCE = 0.6;

/** How a participant settled an answer heard with low confidence (see LOW_SPEECH_CONFIDENCE). */
export const HEARD_CHECKS = ['unclear', 'confirmed', 'corrected'] as const;
export type THeardCheck = (typeof HEARD_CHECKS)[number];

/** `GET /v1/sessions/{sessionId}/transcript` (and `/api/session/{sessionId}/transcript`). */
export const ZTranscriptQuery = z.strictObject({
  format: z.enum(TRANSCRIPT_FORMATS).default('json').meta({ description: 'json (default), text, srt or vtt.' }),
  include_sentiment: queryFlag(true, "Each utterance's sentiment"),
  include_keywords: queryFlag(false, "Each utterance's keywords and key phrases"),
  redact_pii: queryFlag(false, 'Replace emails, phone numbers, card numbers and SSNs with [EMAIL REDACTED], [PHONE REDACTED], [CARD REDACTED], [SSN REDACTED]'),
  redact_kinds: ZRedactKinds,
  speaker: z.enum(SPEAKER_FILTERS).default('all').meta({ description: 'Only the AI interviewer, only the participant, or all (default).' }),
});
export type TTranscriptQuery = z.infer<typeof ZTranscriptQuery>;

/** The same options for typed clients (`/trpc`), the flags as booleans; the format is JSON. */
export const ZTranscriptInput = z.strictObject({
  sessionId: ZPathId,
  ...asTypedInput(ZTranscriptQuery.omit({ format: true }).shape),
});

export const ZTranscriptUtterance = z
  .object({
    id: z.string().meta({ example: 'utt_7Hc2kqP0sWl1XbVn9aR4tE' }),
    speaker: z.enum(['ai', 'participant']),
    text: z.string(),
    startTime: z.number().meta({ description: 'Seconds from the session start.', example: 12.4 }),
    endTime: z.number().meta({ description: 'Seconds from the session start.', example: 17.9 }),
    confidence: z
      .number()
      .min(0)
      .max(1)
      .meta({ description: "How sure the text is: 1 for typed text and the AI's words, the recognizer's confidence for speech." }),
    lowConfidence: z
      .literal(true)
      .optional()
      .meta({
        description: `Participant answers heard with a speech confidence below ${LOW_SPEECH_CONFIDENCE} that the participant neither confirmed nor corrected: the text may not be what was said; left out of insights and summaries. Absent otherwise.`,
      }),
    heardConfirmed: z.literal(true).optional().meta({
      description: 'The participant confirmed a low-confidence recognition as what they said ("That\'s right"); `confidence` stays the recognizer\'s.',
    }),
    heardAs: z.string().optional().meta({
      description:
        'The participant corrected a low-confidence recognition: the recognised text their typed correction replaced (`text` is the correction, `confidence` 1).',
    }),
    sentiment: z.enum(SENTIMENTS).optional().meta({ description: 'With include_sentiment (default).' }),
    keywords: z.array(z.string()).optional().meta({ description: 'Keywords and key phrases, as they appear in the text; with include_keywords.' }),
    questionId: z.string().nullable().meta({ description: 'The script question the utterance asks or responds to; null for the closing words.' }),
    detectedLanguage: z.string().optional().meta({
      description:
        "Only on a participant's answer written in another language than the interview's (detected from its text, at least 5 words): that language, e.g. `de`.",
    }),
    value: ZAnswerValue.optional().meta({
      description:
        'Participant answers to rating, yes_no and multiple_choice questions: the parsed value (a number, true/false, or the option); null when it could not be read.',
    }),
    probe: ZProbeLedger.nullable().meta({
      description:
        "The AI's follow-ups (probes): why it was asked (`reason`), the participant's words it picked up (`pickedUp`, redacted with redact_pii), who worded it (`source`) and its number on the question (`probeNumber`). Null on every other utterance, and on follow-ups recorded before the ledger existed.",
    }),
  })
  .meta({ id: 'TranscriptUtterance' });
export type TTranscriptUtterance = z.infer<typeof ZTranscriptUtterance>;

export const ZTranscript = z
  .object({
    sessionId: z.string(),
    language: z.string(),
    duration: z.number().int().meta({ description: 'Seconds in progress (pauses excluded).' }),
    utterances: z.array(ZTranscriptUtterance),
    generatedAt: ZTimestamp,
  })
  .meta({ id: 'Transcript' });
export type TTranscript = z.infer<typeof ZTranscript>;

/** Why a finished session has no transcript (`TRANSCRIPT_NOT_READY` with `details.status: none`). */
export const TRANSCRIPT_NONE_REASONS = ['no_answers', 'too_little_speech'] as const;
export type TTranscriptNoneReason = (typeof TRANSCRIPT_NONE_REASONS)[number];

export const ZInsightsQuery = z.strictObject({
  sessionId: ZPathId,
  redact_pii: queryFlag(false, 'Redact PII in the summary, quotes, action items and topic labels'),
  redact_kinds: ZRedactKinds,
});

/** design.md "Insights": `GET /v1/sessions/{sessionId}/insights`. */
export const ZInsights = z
  .object({
    sessionId: z.string(),
    summary: z.string(),
    keyQuotes: z.array(z.object({ text: z.string().meta({ description: "The participant's words, verbatim." }), utteranceId: z.string() })),
    actionItems: z.array(z.string()),
    topics: z.array(z.object({ label: z.string(), utteranceIds: z.array(z.string()) })),
    generatedBy: z.enum(['builtin', 'llm']).meta({ description: 'The built-in extractive method, or the configured LLM.' }),
    excludedLowConfidence: z.number().int().meta({
      description:
        'Participant answers left out because they were heard with low confidence and never confirmed or corrected (`lowConfidence` in the transcript).',
    }),
    generatedAt: ZTimestamp,
  })
  .meta({ id: 'Insights' });
export type TInsights = z.infer<typeof ZInsights>;

export const PDF_BRANDINGS = ['default', 'minimal', 'custom'] as const;

/** `GET /v1/sessions/{sessionId}/pdf` (and `/api/session/{sessionId}/pdf`). */
export const ZPdfQuery = z.strictObject({
  include_insights: queryFlag(true, 'The insights section'),
  include_timestamps: queryFlag(true, 'Timestamps on utterances and quotes'),
  include_sentiment: queryFlag(true, 'Sentiment of the session and of each utterance'),
  branding: z.enum(PDF_BRANDINGS).default('default').meta({
    description: "default (the service's look), minimal (black on white), custom (the organization's name, logo and brand colour).",
  }),
  redact_pii: queryFlag(false, 'Redact PII in every text of the report'),
  redact_kinds: ZRedactKinds,
});
export type TPdfQuery = z.infer<typeof ZPdfQuery>;

/** At most this many sessions in one ZIP with audio (the spec's limit). */
export const ZIP_EXPORT_MAX_SESSIONS = 500;

/** `GET /api/campaigns/{campaignId}/transcripts` and `GET /api/projects/{projectId}/transcripts`. */
export const ZExportQuery = z.strictObject({
  format: z.enum(['json', 'csv']).default('json').meta({ description: 'One JSON document (default) or a flattened CSV, one row per utterance.' }),
  include_audio: queryFlag(
    false,
    `A ZIP with the transcripts in that format, one audio file per session and manifest.json (at most ${ZIP_EXPORT_MAX_SESSIONS} sessions)`,
  ),
  redact_pii: queryFlag(false, 'Redact PII in every transcript'),
  redact_kinds: ZRedactKinds,
});
