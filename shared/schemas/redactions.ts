import { z } from 'zod';
import { ZAuthor, ZPathId, ZTimestamp } from './common.js';

/** What a redaction writes in place of the words it removes. */
export const REDACTION_MARKER = '[REDACTED]';

export const TRANSCRIPT_AUDIT_ACTIONS = ['redact', 'sentiment_override', 'sentiment_override_cleared'] as const;
export type TTranscriptAuditAction = (typeof TRANSCRIPT_AUDIT_ACTIONS)[number];

/** Who did it: the author of any workspace record (a member or an API key, with the name it had then). */
export const ZAuditActor = ZAuthor;
export type TAuditActor = z.infer<typeof ZAuditActor>;

/**
 * One change to a stored transcript. `details` holds offsets, time ranges, file ids and
 * sentiments, never the words a redaction removed.
 */
export const ZTranscriptAuditEntry = z.object({
  id: z.string(),
  sessionId: z.string(),
  utteranceId: z.string(),
  action: z.enum(TRANSCRIPT_AUDIT_ACTIONS),
  actor: ZAuditActor,
  reason: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
  createdAt: ZTimestamp,
});
export type TTranscriptAuditEntry = z.infer<typeof ZTranscriptAuditEntry>;

export const ZAuditReason = z.string().trim().min(1, 'must not be empty').max(500, 'must be at most 500 characters');

/** An offset into the utterance's text: a JavaScript string index (UTF-16 code units). */
const ZOffset = z.number().int().min(0).max(1_000_000);
/** Seconds from the session's start, as utterance times are. */
const ZSessionSeconds = z.number().min(0).max(86_400);

/**
 * `start`/`end`: the span of the utterance's current text to remove (end exclusive);
 * `expectedText`: that span as the caller saw it (`text.slice(start, end)`). When the text there is
 * no longer that (changed meanwhile, or a retry of a redaction already made) nothing is removed:
 * 409 `TRANSCRIPT_CHANGED`. Without word timings the whole utterance's recording is silenced;
 * `audioStart`/`audioEnd` (seconds from the session's start, within the utterance's time) narrow
 * that to the range where the words were said.
 */
export const ZRedactInput = z
  .strictObject({
    sessionId: ZPathId,
    utteranceId: ZPathId,
    start: ZOffset,
    end: ZOffset,
    expectedText: z.string().max(1_000_000),
    reason: ZAuditReason.optional(),
    audioStart: ZSessionSeconds.optional(),
    audioEnd: ZSessionSeconds.optional(),
  })
  .superRefine((input, ctx) => {
    if (input.end <= input.start) ctx.addIssue({ code: 'custom', path: ['end'], message: 'must be greater than start' });
    else if (input.expectedText.length !== input.end - input.start) {
      ctx.addIssue({
        code: 'custom',
        path: ['expectedText'],
        message: `must be the span's text: end - start (${input.end - input.start}) characters, not ${input.expectedText.length}`,
      });
    }
    if ((input.audioStart === undefined) !== (input.audioEnd === undefined)) {
      ctx.addIssue({ code: 'custom', path: [input.audioStart === undefined ? 'audioStart' : 'audioEnd'], message: 'audioStart and audioEnd go together' });
    } else if (input.audioStart !== undefined && input.audioEnd! <= input.audioStart) {
      ctx.addIssue({ code: 'custom', path: ['audioEnd'], message: 'must be greater than audioStart' });
    }
  });
export type TRedactInput = z.infer<typeof ZRedactInput>;

/** A silenced stretch of a stored recording: the file and the seconds within it. */
export const ZSilencedFile = z.object({
  fileId: z.string(),
  /** The answer's recording and the session's recordings that hold the participant's voice (the AI's track holds none). */
  kind: z.enum(['audio', 'merged_audio', 'participant_audio']),
  start: z.number(),
  end: z.number(),
});

export const ZRedaction = z.object({
  /** false: the span held nothing but earlier `[REDACTED]` markers (and spaces), so nothing changed and nothing was logged. */
  changed: z.boolean(),
  sessionId: z.string(),
  utteranceId: z.string(),
  /** The utterance's text now. */
  text: z.string(),
  /** Where the marker now stands in `text` (the span as removed, widened over any marker it cut into); null when nothing changed. */
  marker: z.object({ start: z.number().int(), end: z.number().int() }).nullable(),
  audio: z.object({
    /** `utterance`: no word timings, the whole recording of the answer; `range`: audioStart/audioEnd; `none`: the utterance has no recording. */
    mode: z.enum(['utterance', 'range', 'none']),
    /** Seconds from the session's start; null for `none`. */
    start: z.number().nullable(),
    end: z.number().nullable(),
    files: z.array(ZSilencedFile),
  }),
  /** Highlights of the utterance whose offsets moved or widened. */
  highlightsAdjusted: z.number().int(),
  entry: ZTranscriptAuditEntry.nullable(),
});
export type TRedaction = z.infer<typeof ZRedaction>;

export const ZListRedactionsInput = z.strictObject({ sessionId: ZPathId });
export const ZRedactionList = z.object({ data: z.array(ZTranscriptAuditEntry) });
export type TRedactionList = z.infer<typeof ZRedactionList>;
