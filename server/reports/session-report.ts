import type { TPdfQuery } from '../../shared/schemas/transcripts.js';

/**
 * What a session's PDF report shows, already assembled (and redacted where asked) by the caller:
 * the renderer reads nothing else and runs no query.
 */
export interface SessionReport {
  organization: {
    name: string;
    /** PNG or JPEG bytes of the organization's logo (custom branding only); null when none could be had. */
    logo: Buffer | null;
    /** `#RRGGBB` accent colour (custom branding only); null for the default. */
    brandColor: string | null;
  };
  campaign: { id: string; name: string };
  session: {
    id: string;
    participant: { name: string | null; email: string | null };
    startedAt: Date | null;
    completedAt: Date | null;
    /** Seconds in progress. */
    durationSeconds: number;
    /** BCP 47 tag (`en`, `pt-BR`): the PDF's document language; for Chinese, Japanese and Korean it picks the fallback font's regional glyphs. */
    language: string;
    status: string;
    completionStatus: string | null;
    questionsAnswered: number;
    totalQuestions: number;
    sentiment: { overall: 'positive' | 'neutral' | 'negative'; score: number } | null;
  };
  /** Structured questions and what the participant answered (null: unreadable or unanswered). */
  answers: { questionText: string; value: number | boolean | string | null }[];
  /** null: no insights section (left out by `include_insights=false`, or none made). */
  insights: {
    summary: string;
    /** startTime: seconds from the session start, as on utterances; null when unknown (shown without a timestamp). */
    keyQuotes: { text: string; utteranceId: string; startTime: number | null }[];
    actionItems: string[];
    topics: { label: string; utteranceCount: number }[];
  } | null;
  /** In the order they are shown. Text may hold newlines (kept as paragraph breaks) and any script. */
  utterances: {
    id: string;
    speaker: 'ai' | 'participant';
    text: string;
    /** Seconds from the session start. */
    startTime: number;
    endTime: number;
    sentiment: 'positive' | 'neutral' | 'negative' | null;
  }[];
  /** When the report was made (shown in the footer). */
  generatedAt: Date;
}

/** How the report is laid out: the PDF query's options (whether insights are shown is `report.insights`). */
export type SessionReportOptions = Pick<TPdfQuery, 'include_timestamps' | 'include_sentiment' | 'branding'>;
