import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TInterviewLanguage } from '../../shared/languages.js';
import { candidatePhrasesIn } from '../../server/analysis/other-languages.js';
import { classifyFeatures, trainSentimentModel } from '../../server/analysis/sentiment-classifier.js';
import { SENTIMENT_MODELS } from '../../server/analysis/sentiment-models.js';
import crossValidation from '../../server/analysis/sentiment-models/cross-validation.json' with { type: 'json' };
import {
  accuracy,
  type CrossValidationRecord,
  crossValidationDigest,
  type LabelledSet,
  loadLabelledSet,
  oneStandardErrorChoice,
} from '../../server/analysis/sentiment-training.js';

/**
 * The trained sentiment classifier of every interview language against the labelled sets it
 * never trained on (server/analysis/sentiment-training.ts says which parts train and which are
 * held out): blind sets written by an author who saw neither the method nor the other sets, and
 * English's older `final` part. Each floor is a little below the figure measured when the models
 * were trained; the table printed (with set sizes) is the one in docs/interviews.md.
 */
const HELD_OUT_FLOORS: Record<TInterviewLanguage, Record<string, number>> = {
  en: { 'sentiment.json (final)': 0.86, 'sentiment/en.heldout.json': 0.81, 'sentiment/en.b.heldout.json': 0.74 },
  nl: { 'sentiment/nl.heldout.json': 0.8, 'sentiment/nl.b.heldout.json': 0.74 },
  de: { 'sentiment/de.heldout.json': 0.84, 'sentiment/de.b.heldout.json': 0.75 },
  fr: { 'sentiment/fr.heldout.json': 0.84, 'sentiment/fr.b.heldout.json': 0.75 },
  es: { 'sentiment/es.heldout.json': 0.77, 'sentiment/es.b.heldout.json': 0.68 },
};

const CROSS_VALIDATION: Partial<Record<TInterviewLanguage, CrossValidationRecord>> = crossValidation;

const table: string[] = [];
afterAll(() => {
  if (table.length > 0) console.log(['language | trained on | held-out set | size | classifier | lexicon alone', ...table].join('\n'));
});

describe.each(['en', 'nl', 'de', 'fr', 'es'] as const)('sentiment in %s', (language) => {
  let set: LabelledSet;
  beforeAll(async () => {
    set = await loadLabelledSet(language);
  }, 60_000);

  it('labels each held-out set at least as well as its floor', () => {
    const model = SENTIMENT_MODELS[language];
    expect(set.heldOut.map((part) => part.name).sort()).toEqual(Object.keys(HELD_OUT_FLOORS[language]).sort());
    for (const part of set.heldOut) {
      const measured = accuracy(model, part.examples);
      // The lexicon method's own label is one of the classifier's features: `lex_<label>` set to 1.
      const lexicon = part.examples.filter((example) => example.features.get(`lex_${example.label}`) === 1).length / part.examples.length;
      const confusion: Record<string, number> = {};
      for (const example of part.examples) {
        const cell = `${example.label}→${classifyFeatures(model, example.features).sentiment}`;
        confusion[cell] = (confusion[cell] ?? 0) + 1;
      }
      table.push(
        `${language} | ${set.training.length} | ${part.name} | ${part.examples.length} | ${(100 * measured).toFixed(1)}% | ${(100 * lexicon).toFixed(1)}% | ${JSON.stringify(confusion)}`,
      );
      expect(measured, part.name).toBeGreaterThanOrEqual(HELD_OUT_FLOORS[language][part.name]!);
    }
    // The blind sets together: the figure the aim (80%, English 85%) is about.
    const blind = set.heldOut.filter((part) => part.name.startsWith('sentiment/')).flatMap((part) => part.examples);
    table.push(`${language} | ${set.training.length} | both blind held-out sets | ${blind.length} | ${(100 * accuracy(model, blind)).toFixed(1)}% | |`);
  });

  it('the model checked in is exactly what training makes of the training parts (retrain with npm run train:sentiment)', () => {
    expect(SENTIMENT_MODELS[language].language).toBe(language);
    expect(trainSentimentModel(language, set.training, SENTIMENT_MODELS[language].l2)).toEqual(SENTIMENT_MODELS[language]);
  }, 60_000);

  it('its penalty is the one cross-validation on the training parts chooses (one-standard-error rule)', () => {
    // npm run train:sentiment ran the cross-validation (twenty trainings a language) and recorded
    // it with a digest of what it read: the same digest proves the run was on these very training
    // parts, candidates, folds and model, so its choice stands without running it again.
    const record = CROSS_VALIDATION[language];
    expect(record, 'sentiment-models/cross-validation.json has no run of this language: npm run train:sentiment').toBeDefined();
    expect(record!.digest, 'the recorded cross-validation is not of these training parts and this model: npm run train:sentiment').toBe(
      crossValidationDigest(set, SENTIMENT_MODELS[language]),
    );
    console.log(
      `${language} cross-validated on ${set.training.length}: ${record!.all.map((c) => `l2 ${c.l2} ${(100 * c.accuracy).toFixed(1)}%`).join(', ')}; chosen ${record!.l2}`,
    );
    expect(oneStandardErrorChoice(record!.all, set.training.length).l2).toBe(record!.l2);
    expect(record!.l2).toBe(SENTIMENT_MODELS[language].l2);
  });
});

describe('keywords in other languages', () => {
  it("are runs of content words, without the language's stop words, as written", () => {
    expect(candidatePhrasesIn('nl', 'De installatie van de app ging echt heel vlot.').map((candidate) => candidate.text)).toEqual([
      'installatie',
      'app',
      'vlot',
    ]);
    expect(candidatePhrasesIn('de', 'Die Einrichtung war einfach, aber die Rechnung kam spät.').map((candidate) => candidate.text)).toEqual([
      'Einrichtung',
      'Rechnung',
      'spät',
    ]);
    expect(candidatePhrasesIn('fr', "L'équipe support a répondu en deux heures.").map((candidate) => candidate.text)).toEqual([
      'équipe support',
      'répondu',
      'heures',
    ]);
  });
});
