import type { TInterviewLanguage } from '../../shared/languages.js';
import type { TSentiment } from '../../shared/schemas/transcripts.js';
import type { Sentence } from './nlp.js';
import type { OtherLanguage } from './other-languages.js';
import { classifyReading, englishReading, otherLanguageReading, type SentimentModel } from './sentiment-classifier.js';
import de from './sentiment-models/de.json' with { type: 'json' };
import en from './sentiment-models/en.json' with { type: 'json' };
import es from './sentiment-models/es.json' with { type: 'json' };
import fr from './sentiment-models/fr.json' with { type: 'json' };
import nl from './sentiment-models/nl.json' with { type: 'json' };

/**
 * The trained sentiment classifier of each interview language (sentiment-classifier.ts), read
 * once with the module: `npm run train:sentiment` writes them.
 */
export const SENTIMENT_MODELS: Record<TInterviewLanguage, SentimentModel> = {
  en: checked(en, 'en'),
  nl: checked(nl, 'nl'),
  de: checked(de, 'de'),
  fr: checked(fr, 'fr'),
  es: checked(es, 'es'),
};

/** A model file as training writes it (JSON types its weight triples as arrays): a stale or misplaced file fails at start, not in a transcript job. */
function checked(model: { version: number; language: string }, language: TInterviewLanguage): SentimentModel {
  if (model.version !== 3 || model.language !== language)
    throw new Error(`sentiment-models/${language}.json is not a version 3 model of ${language}: run npm run train:sentiment`);
  return model as unknown as SentimentModel;
}

/** A participant's English utterance already read into sentences, by the English model. */
export function englishSentiment(sentences: Sentence[]): { sentiment: TSentiment; score: number } {
  return classifyReading(SENTIMENT_MODELS.en, englishReading(sentences));
}

/** A participant's utterance in Dutch, German, French or Spanish, by that language's model. */
export async function otherLanguageSentiment(language: OtherLanguage, text: string): Promise<{ sentiment: TSentiment; score: number }> {
  return classifyReading(SENTIMENT_MODELS[language], await otherLanguageReading(language, text));
}
