import type { InsightsDraft, InsightsInput, TextAnalyzer, TranscriptAnalysis, TranscriptInput } from './analyzer.js';
import { extractBuiltinInsights } from './builtin-insights.js';
import { candidatePhrases, rankKeywords } from './keywords.js';
import { readSentences } from './nlp.js';
import { analyzeSentiment } from './sentiment.js';

/**
 * Analysis without network: sentiment by the lexicon method in sentiment.ts, keywords by the
 * noun-phrase ranking in keywords.ts (across the whole interview), insights by extraction.
 * English rules; other languages get the same treatment until they have their own.
 */
export class BuiltinAnalyzer implements TextAnalyzer {
  readonly name = 'builtin';

  async analyzeTranscript(input: TranscriptInput): Promise<TranscriptAnalysis> {
    const candidates = input.utterances.map((utterance) => readSentences(utterance.text).flatMap((sentence) => candidatePhrases(sentence.tokens)));
    const keywords = rankKeywords(candidates);
    return {
      utterances: input.utterances.map((utterance, index) => ({ ...analyzeSentiment(utterance.text, { interviewer: utterance.speaker === 'ai' }), keywords: keywords[index]! })),
      analyzedBy: 'builtin',
    };
  }

  async extractInsights(input: InsightsInput): Promise<InsightsDraft> {
    return extractBuiltinInsights(input);
  }
}
