import type { InsightsDraft, InsightsInput, TextAnalyzer, TranscriptAnalysis, TranscriptInput } from './analyzer.js';
import { interviewLanguageOf } from '../../shared/languages.js';
import { extractBuiltinInsights } from './builtin-insights.js';
import { analysedOtherLanguageOf, analyzeOtherLanguage, sentimentOf } from './other-languages.js';
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
 * interview); insights by extraction. Those are English methods: Dutch, German, French and
 * Spanish transcripts go to nlp.js' lexicons and their own stop words (other-languages.ts).
 */
export class BuiltinAnalyzer implements TextAnalyzer {
  readonly name = 'builtin';

  async analyzeTranscript(input: TranscriptInput): Promise<TranscriptAnalysis> {
    const language = interviewLanguageOf(input.language);
    if (language && language !== 'en') return analyzeOtherLanguage(language, input);
    const sentences = input.utterances.map((utterance) => readSentences(utterance.text));
    const keywords = rankKeywords(sentences.map((read) => read.flatMap((sentence) => candidatePhrases(sentence.tokens))));
    return {
      // The participant's words go to the trained classifier; the interviewer's (questions, mostly) stay with the rules.
      utterances: await Promise.all(
        input.utterances.map(async (utterance, index) => {
          // An answer given in Dutch, German, French or Spanish is scored in that language.
          const other = analysedOtherLanguageOf(utterance);
          const sentiment = other
            ? await sentimentOf(other, utterance.text)
            : utterance.speaker === 'ai'
              ? analyzeSentences(sentences[index]!, { interviewer: true })
              : classifySentences(MODEL, sentences[index]!);
          return { ...sentiment, keywords: keywords[index]! };
        }),
      ),
      analyzedBy: 'builtin',
    };
  }

  async extractInsights(input: InsightsInput): Promise<InsightsDraft> {
    return extractBuiltinInsights(input);
  }
}
