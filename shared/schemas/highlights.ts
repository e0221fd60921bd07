import { z } from 'zod';
import { normalizeHex } from '../hex-colour.js';
import { PAGE_LIMITS, ZAuthor, ZCursorPage, ZCursorPageInput, ZPathId, ZTimestamp } from './common.js';

/** What a highlight is coloured when none is given (a highlighter yellow). */
export const DEFAULT_HIGHLIGHT_COLOR = '#fde047';

export const HIGHLIGHT_LIMITS = { labelMaxLength: 60, noteMaxLength: 2000 } as const;

/** `#rrggbb` (or `#rgb`), stored as `#rrggbb` in lower case. */
export const ZHighlightColor = z
  .string()
  .refine((value) => normalizeHex(value) !== null, 'must be # followed by six hex digits, e.g. #fde047')
  .transform((value) => normalizeHex(value)!);

const ZLabel = z.string().trim().min(1, 'must not be empty').max(HIGHLIGHT_LIMITS.labelMaxLength);
const ZNote = z.string().trim().min(1, 'must not be empty').max(HIGHLIGHT_LIMITS.noteMaxLength);

/** An offset into the utterance's text: a JavaScript string index (UTF-16 code units). */
const ZOffset = z.number().int().min(0).max(1_000_000);

export const ZHighlight = z.object({
  id: z.string(),
  sessionId: z.string(),
  campaignId: z.string(),
  campaignName: z.string(),
  utteranceId: z.string(),
  speaker: z.enum(['ai', 'participant']),
  /** Seconds from the session's start. */
  startTime: z.number(),
  /** Offsets into the utterance's current text, end exclusive. */
  start: z.number().int(),
  end: z.number().int(),
  /** `text.slice(start, end)` of the utterance as it is now (never stored). */
  quote: z.string(),
  label: z.string().nullable(),
  color: z.string(),
  note: z.string().nullable(),
  author: ZAuthor,
  createdAt: ZTimestamp,
  updatedAt: ZTimestamp,
});
export type THighlight = z.infer<typeof ZHighlight>;

export const ZCreateHighlightInput = z
  .strictObject({
    sessionId: ZPathId,
    utteranceId: ZPathId,
    start: ZOffset,
    end: ZOffset,
    label: ZLabel.optional(),
    color: ZHighlightColor.optional(),
    note: ZNote.optional(),
  })
  .superRefine((input, context) => {
    if (input.end <= input.start) context.addIssue({ code: 'custom', path: ['end'], message: 'must be greater than start' });
  });
export type TCreateHighlightInput = z.infer<typeof ZCreateHighlightInput>;

export const ZListHighlightsInput = z.strictObject({
  sessionId: ZPathId.optional(),
  campaignId: ZPathId.optional(),
  /** Exact label, ignoring case. */
  label: ZLabel.optional(),
  ...ZCursorPageInput,
});
export type TListHighlightsInput = z.infer<typeof ZListHighlightsInput>;

export const ZHighlightPage = ZCursorPage(ZHighlight);

/** `null` clears the label or the note. */
export const ZUpdateHighlightInput = z.strictObject({
  highlightId: ZPathId,
  label: ZLabel.nullable().optional(),
  color: ZHighlightColor.optional(),
  note: ZNote.nullable().optional(),
});
export type TUpdateHighlightInput = z.infer<typeof ZUpdateHighlightInput>;

export const ZHighlightIdInput = z.strictObject({ highlightId: ZPathId });
