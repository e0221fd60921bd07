import type { TAnswerValue } from '../../shared/schemas/sessions.js';
import type { TSentiment } from '../../shared/schemas/transcripts.js';

/**
 * Analysis of a transcript (per-utterance sentiment and keywords) and the insights drawn from it.
 * The built-in analyzer needs no network; with `LLM_BASE_URL` an OpenAI-compatible chat model
 * does the work and the built-in one stands in whenever it fails.
 */
export interface TextAnalyzer {
  readonly name: AnalyzerName;
  analyzeTranscript(input: TranscriptInput): Promise<TranscriptAnalysis>;
  extractInsights(input: InsightsInput): Promise<InsightsDraft>;
}

export type AnalyzerName = 'builtin' | 'llm';

export interface UtteranceInput {
  id: string;
  speaker: 'ai' | 'participant';
  text: string;
  questionId: string | null;
  /** A participant's answer in another language than the interview's, as the transcript job detected it once ("de"). */
  detectedLanguage?: string | null;
}

export interface TranscriptInput {
  /** BCP 47 language of the interview. */
  language: string;
  utterances: UtteranceInput[];
}

export interface UtteranceAnalysis {
  sentiment: TSentiment;
  /** -1 (negative) to 1 (positive). */
  score: number;
  /** As written in the utterance's text, most important first. */
  keywords: string[];
}

export interface TranscriptAnalysis {
  /** One per input utterance, in the same order. */
  utterances: UtteranceAnalysis[];
  /** Who actually analysed it (the LLM analyzer's fallback says `builtin`). */
  analyzedBy: AnalyzerName;
}

export interface AnalyzedUtterance extends UtteranceInput, UtteranceAnalysis {
  startTime: number;
}

export interface InsightsInput {
  language: string;
  /** The script's questions, in asking order. */
  questions: { id: string; text: string; type: string }[];
  utterances: AnalyzedUtterance[];
  /** Parsed answers to structured questions. */
  answers: { questionId: string; value: TAnswerValue }[];
  session: {
    durationSeconds: number;
    questionsAnswered: number;
    totalQuestions: number;
    completionStatus: 'completed' | 'timed_out' | 'abandoned' | null;
    sentiment: { overall: TSentiment; score: number } | null;
  };
}

export interface InsightsDraft {
  summary: string;
  /** Verbatim participant words, each naming the utterance it comes from. */
  keyQuotes: { text: string; utteranceId: string }[];
  actionItems: string[];
  topics: { label: string; utteranceIds: string[] }[];
  generatedBy: AnalyzerName;
}
