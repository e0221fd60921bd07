import type { InsightsDraft, InsightsInput, TextAnalyzer, TranscriptAnalysis, TranscriptInput } from './analyzer.js';
import { interviewLanguageOf } from '../../shared/languages.js';
import { extractBuiltinInsights } from './builtin-insights.js';
import { analysedOtherLanguageOf, otherLanguageKeywords, sentimentOf } from './other-languages.js';
import { candidatePhrases, rankKeywords } from './keywords.js';
import { readSentences } from './nlp.js';
import { analyzeSentences } from './sentiment.js';
import { englishSentiment, otherLanguageSentiment } from './sentiment-models.js';

/**
 * Analysis without network: the participant's sentiment by the classifier trained for the
 * language it was said in (sentiment-classifier.ts, over the language's lexicon method), the
 * interviewer's (questions, mostly) by the lexicon method alone; keywords by the noun-phrase
 * ranking in keywords.ts (across the whole interview), with nlp.js' stop words for Dutch,
 * German, French and Spanish transcripts (other-languages.ts); insights by extraction.
 */
export class BuiltinAnalyzer implements TextAnalyzer {
  readonly name = 'builtin';

  async analyzeTranscript(input: TranscriptInput): Promise<TranscriptAnalysis> {
    const language = interviewLanguageOf(input.language);
    if (language && language !== 'en') {
      const keywords = otherLanguageKeywords(language, input);
      const utterances = [];
      for (const [index, utterance] of input.utterances.entries()) {
        // An answer given in another of these languages is scored in that language.
        const spoken = analysedOtherLanguageOf(utterance) ?? language;
        const sentiment = utterance.speaker === 'ai' ? await sentimentOf(spoken, utterance.text) : await otherLanguageSentiment(spoken, utterance.text);
        utterances.push({ ...sentiment, keywords: keywords[index]! });
      }
      return { utterances, analyzedBy: 'builtin' };
    }
    const sentences = input.utterances.map((utterance) => readSentences(utterance.text));
    const keywords = rankKeywords(sentences.map((read) => read.flatMap((sentence) => candidatePhrases(sentence.tokens))));
    return {
      utterances: await Promise.all(
        input.utterances.map(async (utterance, index) => {
          // An answer given in Dutch, German, French or Spanish is scored in that language.
          const other = analysedOtherLanguageOf(utterance);
          const sentiment =
            utterance.speaker === 'ai'
              ? other
                ? await sentimentOf(other, utterance.text)
                : analyzeSentences(sentences[index]!, { interviewer: true })
              : other
                ? await otherLanguageSentiment(other, utterance.text)
                : englishSentiment(sentences[index]!);
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
