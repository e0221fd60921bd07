// The client package build (clients/trpc/tsconfig.build.json) starts from app-router.ts alone and
// reaches these ambient module types only through this reference.
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="./nlpjs.d.ts" />
import { Container } from '@nlpjs/core';
import { LangDe, StemmerDe } from '@nlpjs/lang-de';
import { LangEs, StemmerEs } from '@nlpjs/lang-es';
import { LangFr, StemmerFr } from '@nlpjs/lang-fr';
import { LangNl, StemmerNl } from '@nlpjs/lang-nl';
import { createRequire } from 'node:module';
import { SentimentAnalyzer } from '@nlpjs/sentiment';
import type { TSentiment } from '../../shared/schemas/transcripts.js';
import type { TInterviewLanguage } from '../../shared/languages.js';
import type { TranscriptInput, UtteranceInput } from './analyzer.js';
import { DOMAIN_VALENCE } from './domain-valence.js';
import { type Candidate, rankKeywords } from './keywords.js';

/** The interview languages other than English, analysed by nlp.js' lexicons (English keeps its own, trained, method). */
export type OtherLanguage = Exclude<TInterviewLanguage, 'en'>;

/**
 * Scores below this (either way) are neutral. Chosen on the development half (even items) of the
 * labelled sets, over 0 to 0.3 (tests/analysis/sentiment-languages.test.ts reports the held-out half).
 */
const NEUTRAL_BAND = 0.05;

let analyzer: SentimentAnalyzer | undefined;

/** nlp.js with its Dutch, German, French and Spanish stemmers, tokenizers and sentiment lexicons, built once. */
function sentimentAnalyzer(): SentimentAnalyzer {
  if (!analyzer) {
    const container = new Container();
    for (const language of [LangNl, LangDe, LangFr, LangEs]) container.use(language);
    analyzer = new SentimentAnalyzer({ container });
  }
  return analyzer;
}

/** Words that turn the valence of what follows within a few words ("niet handig", "pas clair"). */
const NEGATORS: Record<OtherLanguage, Set<string>> = {
  nl: new Set(['niet', 'geen', 'nooit', 'nauwelijks', 'amper']),
  de: new Set(['nicht', 'kein', 'keine', 'keinen', 'keinem', 'keiner', 'nie', 'niemals', 'kaum']),
  fr: new Set(['pas', 'jamais', 'aucun', 'aucune', 'guère', 'ni', 'plus']),
  es: new Set(['no', 'nunca', 'ningún', 'ninguna', 'ninguno', 'ni', 'tampoco', 'apenas', 'jamás']),
};
const NEGATION_REACH = 3;

/** Conjunctions after which the speaker's conclusion comes ("…, maar het werkt"): that clause weighs more. */
const CONTRAST: Record<OtherLanguage, RegExp> = {
  nl: /\b(?:maar|echter|alleen|toch)\b/iu,
  de: /\b(?:aber|jedoch|allerdings|trotzdem)\b/iu,
  fr: /\b(?:mais|cependant|pourtant|toutefois|sauf que)\b/iu,
  es: /\b(?:pero|sin embargo|aunque|salvo que)\b/iu,
};
const BEFORE_CONTRAST = 0.5;
const AFTER_CONTRAST = 1.5;

/** The domain lexicon's phrases by their first word, longest first. */
const DOMAIN_PHRASES: Record<OtherLanguage, Map<string, { words: string[]; valence: number }[]>> = Object.fromEntries(
  (Object.keys(DOMAIN_VALENCE) as OtherLanguage[]).map((language) => {
    const byFirst = new Map<string, { words: string[]; valence: number }[]>();
    for (const [phrase, valence] of Object.entries(DOMAIN_VALENCE[language])) {
      const words = phrase.toLocaleLowerCase(language).split(' ');
      byFirst.set(
        words[0]!,
        [...(byFirst.get(words[0]!) ?? []), { words, valence }].sort((a, b) => b.words.length - a.words.length),
      );
    }
    return [language, byFirst];
  }),
) as Record<OtherLanguage, Map<string, { words: string[]; valence: number }[]>>;

function wordsOf(language: OtherLanguage, text: string): string[] {
  return [
    ...text
      .normalize('NFC')
      .toLocaleLowerCase(language)
      .replace(/['’]/g, ' ')
      .matchAll(/[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)*/gu),
  ].map(([word]) => word);
}

/** The product vocabulary's valence in a text, each match turned by a negator just before it. */
function domainValence(language: OtherLanguage, text: string): number {
  const words = wordsOf(language, text);
  const negators = NEGATORS[language];
  let total = 0;
  for (let i = 0; i < words.length; i++) {
    const match = DOMAIN_PHRASES[language].get(words[i]!)?.find((entry) => entry.words.every((word, k) => words[i + k] === word));
    if (!match) continue;
    const negated = !match.words.some((word) => negators.has(word)) && words.slice(Math.max(0, i - NEGATION_REACH), i).some((word) => negators.has(word));
    total += negated ? -match.valence : match.valence;
    i += match.words.length - 1;
  }
  return total;
}

/** nlp.js' general lexicon (with its own negation) plus the product vocabulary. */
async function valenceOf(language: OtherLanguage, text: string): Promise<number> {
  if (!text.trim()) return 0;
  const general = await sentimentAnalyzer().process({ locale: language, text });
  return general.sentiment.score + domainValence(language, text);
}

/**
 * The sentiment of one text: the valence of the words the general lexicon knows (nlp.js: AFINN
 * or Senticon for Spanish and German, Pattern for Dutch and French) and of the product
 * vocabulary (domain-valence.ts), with negation; after a contrast ("…, maar …") the clause with
 * the conclusion weighs three times the other. The sum is squashed into -1..1, and a narrow band
 * around 0 is neutral.
 */
export async function sentimentOf(language: OtherLanguage, text: string): Promise<{ sentiment: TSentiment; score: number }> {
  const contrast = CONTRAST[language].exec(text);
  const raw =
    contrast && contrast.index > 0
      ? BEFORE_CONTRAST * (await valenceOf(language, text.slice(0, contrast.index))) +
        AFTER_CONTRAST * (await valenceOf(language, text.slice(contrast.index + contrast[0].length)))
      : await valenceOf(language, text);
  const score = Math.tanh(raw / 2);
  const sentiment: TSentiment = score >= NEUTRAL_BAND ? 'positive' : score <= -NEUTRAL_BAND ? 'negative' : 'neutral';
  return { sentiment, score: Math.round(score * 1000) / 1000 };
}

/** nlp.js' Snowball stemmers, one per language (stateless, built once). */
const STEMMERS: Record<OtherLanguage, { stem(words: string[]): string[] }> = {
  nl: new StemmerNl(),
  de: new StemmerDe(),
  fr: new StemmerFr(),
  es: new StemmerEs(),
};

/**
 * Words that open a negation for the trained classifier's terms: the lexicon's negators, and
 * French "ne" (its "pas" often comes after the verb it negates: "ne marche pas").
 */
const NEGATION_OPENERS: Record<OtherLanguage, Set<string>> = { ...NEGATORS, fr: new Set([...NEGATORS.fr, 'ne', 'n']) };

/** Words, and the punctuation that closes a clause (the end of a negation's scope). */
const TERM_TOKEN = /[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)*|[.,;:!?()"“”«»—–]|\p{Extended_Pictographic}/gu;

/**
 * The stems of a text in order, as the trained classifier reads them (sentiment-classifier.ts):
 * lower case, elisions split ("l'équipe"), each word after a negator marked `NOT_` to the end
 * of its clause (punctuation or a contrast: "niet snel, maar stabiel" → NOT_snel, stabiel).
 * Negators themselves stay unmarked, so that a negation that follows its verb ("werkt niet",
 * "funktioniert nicht") is still seen as a pair of stems.
 */
export function sentimentTermsOf(language: OtherLanguage, text: string): string[] {
  const negators = NEGATION_OPENERS[language];
  const contrast = CONTRAST[language];
  const terms: string[] = [];
  let negated = false;
  for (const [token] of text.normalize('NFC').toLocaleLowerCase(language).replace(/['’]/g, ' ').matchAll(TERM_TOKEN)) {
    if (!/[\p{L}\p{N}\p{Extended_Pictographic}]/u.test(token) || contrast.test(token)) {
      negated = false;
      continue;
    }
    if (negators.has(token)) {
      terms.push(token);
      negated = true;
      continue;
    }
    const stem = STEMMERS[language].stem([token])[0] ?? token;
    terms.push(negated ? `NOT_${stem}` : stem);
  }
  return terms;
}

/**
 * Words that name nothing, beyond stopwords-iso's lists: the commonest verbs of saying, going and
 * finding, and degree adverbs, which carry no topic ("ging", "echt", "wirklich", "vraiment").
 */
const PLAIN_WORDS: Record<OtherLanguage, string[]> = {
  nl: [
    'ging',
    'gaat',
    'gaan',
    'kwam',
    'komt',
    'vond',
    'vind',
    'vinden',
    'werd',
    'wordt',
    'worden',
    'zit',
    'zat',
    'heb',
    'hebben',
    'had',
    'echt',
    'heel',
    'erg',
    'best',
    'vooral',
    'gewoon',
    'eigenlijk',
    'even',
    'soms',
    'vaak',
    'altijd',
    'meteen',
    'gebruik',
    'gebruiken',
    'gebruikt',
    'denk',
    'weet',
    'keer',
    'beetje',
    'paar',
    'wel',
    'helemaal',
    'behoorlijk',
  ],
  de: [
    'ging',
    'geht',
    'gehen',
    'kam',
    'kommt',
    'fand',
    'finde',
    'finden',
    'wurde',
    'wird',
    'werden',
    'habe',
    'haben',
    'hatte',
    'wirklich',
    'sehr',
    'echt',
    'ziemlich',
    'eigentlich',
    'einfach',
    'mal',
    'manchmal',
    'oft',
    'immer',
    'sofort',
    'nutze',
    'nutzen',
    'benutze',
    'denke',
    'weiß',
    'bisschen',
    'paar',
    'schon',
    'total',
    'gerade',
  ],
  fr: [
    'allé',
    'allée',
    'va',
    'vont',
    'venu',
    'vient',
    'trouve',
    'trouvé',
    'trouver',
    'était',
    'été',
    'est',
    'sont',
    'ai',
    'avons',
    'avait',
    'vraiment',
    'très',
    'assez',
    'plutôt',
    'juste',
    'souvent',
    'toujours',
    'parfois',
    'fois',
    'utilise',
    'utiliser',
    'utilisé',
    'pense',
    'sais',
    'peu',
    'trop',
    'bien',
    'tout',
    'tous',
    'toute',
    'toutes',
  ],
  es: [
    'fue',
    'fui',
    'va',
    'van',
    'vino',
    'viene',
    'encuentro',
    'encontré',
    'parece',
    'pareció',
    'era',
    'estaba',
    'está',
    'están',
    'tengo',
    'tenemos',
    'tenía',
    'realmente',
    'muy',
    'bastante',
    'bien',
    'solo',
    'siempre',
    'veces',
    'vez',
    'uso',
    'usar',
    'usamos',
    'creo',
    'sé',
    'poco',
    'demasiado',
    'todo',
    'todos',
    'toda',
    'todas',
  ],
};

// Read with require: a JSON import of a package loses its import attribute in the bundled build.
const stopwords = createRequire(import.meta.url)('stopwords-iso/stopwords-iso.json') as Record<string, string[]>;

const STOPWORDS: Record<OtherLanguage, Set<string>> = Object.fromEntries(
  (['nl', 'de', 'fr', 'es'] as const).map((language) => [language, new Set([...stopwords[language]!, ...PLAIN_WORDS[language]])]),
) as Record<OtherLanguage, Set<string>>;

/** Words and the punctuation that ends a phrase; elisions ("l'équipe") split at the apostrophe. */
const TOKEN = /[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)*|[.,;:!?()"“”«»—–]/gu;

/**
 * Candidate key phrases of one text: runs of up to three content words (not stop words of the
 * language, at least three letters, not a number), cut at punctuation and stop words, as written.
 */
export function candidatePhrasesIn(language: OtherLanguage, text: string): Candidate[] {
  const stop = STOPWORDS[language];
  const candidates: Candidate[] = [];
  let run: string[] = [];
  const flush = () => {
    for (let start = 0; start < run.length; start += 3) {
      const words = run.slice(start, start + 3);
      candidates.push({ words: words.map((word) => word.toLocaleLowerCase(language)), text: words.join(' ') });
    }
    run = [];
  };
  for (const [token] of text.normalize('NFC').replace(/['’]/g, ' ').matchAll(TOKEN)) {
    const lower = token.toLocaleLowerCase(language);
    const content = /\p{L}/u.test(token) && [...lower].length >= 3 && !stop.has(lower);
    if (content) run.push(token);
    else flush();
  }
  flush();
  return candidates;
}

const OTHER_LANGUAGES: readonly string[] = ['nl', 'de', 'fr', 'es'] satisfies OtherLanguage[];

/** The language an utterance was detected in, when it is one analysed here (a German answer in a Dutch interview). */
export function analysedOtherLanguageOf(utterance: Pick<UtteranceInput, 'detectedLanguage'>): OtherLanguage | null {
  const detected = utterance.detectedLanguage;
  return detected && OTHER_LANGUAGES.includes(detected) ? (detected as OtherLanguage) : null;
}

/** Keywords of each utterance of a transcript in Dutch, German, French or Spanish, ranked across the interview. */
export function otherLanguageKeywords(language: OtherLanguage, input: TranscriptInput): string[][] {
  return rankKeywords(input.utterances.map((utterance) => candidatePhrasesIn(language, utterance.text)));
}
