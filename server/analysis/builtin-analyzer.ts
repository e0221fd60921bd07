import type { InsightsDraft, InsightsInput, TextAnalyzer, TranscriptAnalysis, TranscriptInput } from './analyzer.js';
import { extractBuiltinInsights } from './builtin-insights.js';
import { candidatePhrases, rankKeywords } from './keywords.js';
import { readSentences } from './nlp.js';
import { analyzeSentences } from './sentiment.js';
import { classifySentences, type SentimentModel } from './sentiment-classifier.js';
import trainedModel from './sentiment-model.json' with { type: 'json' };

const MODEL = trainedModel as SentimentModel;

/**
 * Analysis without network: the participant's sentiment by the classifier trained on the labelled
 * set (sentiment-classifier.ts, over the lexicon method of sentiment.ts), the interviewer's by the
 * lexicon method alone; keywords by the noun-phrase ranking in keywords.ts (across the whole
 * interview); insights by extraction. English rules; other languages get the same treatment
 * until they have their own.
 */
export class BuiltinAnalyzer implements TextAnalyzer {
  readonly name = 'builtin';

  async analyzeTranscript(input: TranscriptInput): Promise<TranscriptAnalysis> {
    const sentences = input.utterances.map((utterance) => readSentences(utterance.text));
    const keywords = rankKeywords(sentences.map((read) => read.flatMap((sentence) => candidatePhrases(sentence.tokens))));
    return {
      // The participant's words go to the trained classifier; the interviewer's (questions, mostly) stay with the rules.
      utterances: input.utterances.map((utterance, index) => ({
        ...(utterance.speaker === 'ai' ? analyzeSentences(sentences[index]!, { interviewer: true }) : classifySentences(MODEL, sentences[index]!)),
        keywords: keywords[index]!,
      })),
      analyzedBy: 'builtin',
    };
  }

  async extractInsights(input: InsightsInput): Promise<InsightsDraft> {
    return extractBuiltinInsights(input);
  }
}
