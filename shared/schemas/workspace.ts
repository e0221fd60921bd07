import { z } from 'zod';
import { ZPathId, ZTimestamp } from './common.js';
import { ZProbeLedger } from './probes.js';
import { COMPLETION_STATUSES, SESSION_STATUSES, ZSessionSentiment } from './sessions.js';
import { SENTIMENTS } from './transcripts.js';
import { ZTurnTakingSummary } from './turn-taking.js';

/** Signed links of the dashboard's views (audio, PDF, transcript text) are valid this long. */
export const WORKSPACE_LINK_TTL_SECONDS = 3600;

export const ZWorkspaceSessionInput = z.strictObject({ sessionId: ZPathId });

/**
 * Turn-taking figures of one utterance (null where nobody measured): an AI turn's latency from the
 * end of the answer before it to its audio starting, the server's time on it (recognising that
 * answer, the interviewer choosing the turn, synthesis to its first audio byte) and whether the
 * participant spoke over it; a participant's answer: whether the page cut them off.
 */
export const ZUtteranceTiming = z.union([
  z.object({
    latencyMs: z.number().int().nullable(),
    recognitionMs: z.number().int().nullable(),
    interviewerMs: z.number().int().nullable(),
    synthesisMs: z.number().int().nullable(),
    bargeIn: z.boolean().nullable(),
  }),
  z.object({ cutOff: z.boolean().nullable() }),
]);
export type TUtteranceTiming = z.infer<typeof ZUtteranceTiming>;

/** One utterance as the session view shows it: the effective sentiment and what is attached to it. */
export const ZWorkspaceUtterance = z.object({
  id: z.string(),
  speaker: z.enum(['ai', 'participant']),
  text: z.string(),
  startTime: z.number().meta({ description: 'Seconds from the session start.' }),
  endTime: z.number(),
  questionId: z.string().nullable(),
  /** The script question's wording, for headings in the transcript. */
  questionText: z.string().nullable(),
  /** The effective sentiment: the researcher's override when there is one, else the analysed one. */
  sentiment: z.enum(SENTIMENTS).nullable(),
  /** The analysed sentiment, kept so the view can say what an override replaced. */
  analysedSentiment: z.enum(SENTIMENTS).nullable(),
  sentimentOverridden: z.boolean(),
  highlightCount: z.number().int(),
  commentCount: z.number().int(),
  /** AI turns: `{latencyMs, recognitionMs, interviewerMs, synthesisMs, bargeIn}`; answers: `{cutOff}`. */
  timing: ZUtteranceTiming,
  /** AI follow-ups: why the probe was asked and the participant's words it picked up; null otherwise. */
  probe: ZProbeLedger.nullable(),
});
export type TWorkspaceUtterance = z.infer<typeof ZWorkspaceUtterance>;

/**
 * `workspace.session`: everything the session view draws in one answer, so the transcript, the
 * player and the counts never disagree about which version of the transcript they show.
 */
export const ZWorkspaceSession = z.object({
  session: z.object({
    id: z.string(),
    campaignId: z.string(),
    campaignName: z.string(),
    projectId: z.string().nullable(),
    status: z.enum(SESSION_STATUSES),
    completionStatus: z.enum(COMPLETION_STATUSES).nullable(),
    participant: z.object({ name: z.string().nullable(), email: z.string().nullable() }),
    language: z.string(),
    startedAt: ZTimestamp.nullable(),
    completedAt: ZTimestamp.nullable(),
    duration: z.number().int(),
    sentiment: ZSessionSentiment.nullable(),
    transcriptStatus: z.enum(['pending', 'ready', 'none']),
    /** Voice turns' summary, as the session record has it; null without voice turns. */
    turnTaking: ZTurnTakingSummary.nullable(),
  }),
  /** Conversation order; utterances without text (audio nothing could transcribe) are left out. */
  utterances: z.array(ZWorkspaceUtterance),
  /**
   * The session's recording with a signed link (1 hour). `offsetSeconds` is the session time at
   * the recording's 0: 0 for the merged recording, the answer's start for a lone answer's audio.
   */
  recording: z
    .object({
      url: z.string(),
      expiresAt: ZTimestamp,
      contentType: z.string(),
      durationSeconds: z.number().nullable(),
      offsetSeconds: z.number(),
    })
    .nullable(),
  counts: z.object({ highlights: z.number().int(), comments: z.number().int() }),
});
export type TWorkspaceSession = z.infer<typeof ZWorkspaceSession>;

export const SESSION_DOWNLOAD_FORMATS = ['pdf', 'text'] as const;

export const ZSessionDownloadInput = z.strictObject({
  sessionId: ZPathId,
  format: z.enum(SESSION_DOWNLOAD_FORMATS).meta({ description: 'pdf: the report with insights; text: the transcript with timestamps and speakers.' }),
});

export const ZInvoiceDownloadInput = z.strictObject({ invoiceId: ZPathId });

/** A download the browser opens by itself: the link is the credential, valid 1 hour. */
export const ZSignedDownload = z.object({ url: z.string(), expiresAt: ZTimestamp });
export type TSignedDownload = z.infer<typeof ZSignedDownload>;
