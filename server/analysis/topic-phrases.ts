import { createRequire } from 'node:module';
import { interviewLanguageOf } from '../../shared/languages.js';

/**
 * Topics (insights) and themes (summaries) are things a researcher would name: noun phrases
 * ("reporting dashboard", "Tableau", "langsame App"), never a stray function word ("La"), a verb
 * ("Wochen gedauert"), an adjective ("Lenta") or a vague noun ("Reasons"). Keywords are broader
 * (they may be adjectives or verb phrases, as the transcript shows them): a keyword becomes a topic
 * only through `topicPhraseOf`. Without a part-of-speech model outside English, nouns are found
 * by what marks them in each language: in German their capital letter; in Dutch, French and
 * Spanish the determiner before them ("de", "la", "los", "mon", "deze").
 */

// Read with require: a JSON import of a package loses its import attribute in the bundled build.
const stopwords = createRequire(import.meta.url)('stopwords-iso/stopwords-iso.json') as Record<string, string[]>;

/** English function words (stopwords-iso's English list also holds nouns such as "page", "research" and "system"). */
const ENGLISH_FUNCTION_WORDS = [
  'a',
  'an',
  'the',
  'this',
  'that',
  'these',
  'those',
  'my',
  'your',
  'his',
  'her',
  'its',
  'our',
  'their',
  'some',
  'any',
  'no',
  'every',
  'each',
  'all',
  'both',
  'either',
  'neither',
  'of',
  'in',
  'on',
  'at',
  'to',
  'for',
  'with',
  'by',
  'from',
  'about',
  'as',
  'and',
  'or',
  'but',
  'if',
  'so',
  'than',
  'then',
  'very',
  'really',
  'just',
  'much',
  'many',
  'more',
  'most',
  'other',
  'such',
  'what',
  'which',
  'who',
  'whose',
  'whom',
  'i',
  'you',
  'he',
  'she',
  'it',
  'we',
  'they',
  'me',
  'him',
  'us',
  'them',
  'is',
  'are',
  'was',
  'were',
  'be',
  'been',
  'being',
  'do',
  'does',
  'did',
  'have',
  'has',
  'had',
  'not',
  'yes',
  'maybe',
  'well',
  'okay',
  'same',
  'few',
  'several',
  'own',
  'whole',
  'certain',
  'various',
];

/** Function words of every interview language: none of them opens or ends a topic, whatever the interview's language (a Spanish aside in an English interview). */
const FUNCTION_WORDS = new Set([...ENGLISH_FUNCTION_WORDS, ...['nl', 'de', 'fr', 'es'].flatMap((language) => stopwords[language]!)]);

/** Nouns too vague to be a topic on their own, per language (English: keywords.ts' GENERIC_NOUNS covers the singular). */
const VAGUE_NOUNS: Record<string, Set<string>> = {
  en: new Set([
    'reasons',
    'ideas',
    'questions',
    'answers',
    'examples',
    'points',
    'cases',
    'parts',
    'sides',
    'kinds',
    'sorts',
    'aspects',
    'details',
    'options',
    'areas',
    'matters',
    'bits',
    'words',
    'feelings',
    'reason',
    'aspect',
    'detail',
    'option',
    'area',
    'matter',
    'word',
    'feeling',
    'truth',
  ]),
  nl: new Set([
    'reden',
    'redenen',
    'ding',
    'dingen',
    'keer',
    'keren',
    'week',
    'weken',
    'dag',
    'dagen',
    'jaar',
    'jaren',
    'maand',
    'maanden',
    'uur',
    'uren',
    'minuut',
    'minuten',
    'manier',
    'deel',
    'probleem',
    'problemen',
    'vraag',
    'vragen',
    'antwoord',
    'idee',
    'punt',
    'kant',
    'soort',
    'beetje',
    'waarheid',
    'mensen',
    'iets',
    'niets',
    'tijd',
  ]),
  de: new Set([
    'grund',
    'gründe',
    'ding',
    'dinge',
    'mal',
    'woche',
    'wochen',
    'tag',
    'tage',
    'jahr',
    'jahre',
    'monat',
    'monate',
    'stunde',
    'stunden',
    'minute',
    'minuten',
    'art',
    'weise',
    'teil',
    'problem',
    'probleme',
    'frage',
    'fragen',
    'antwort',
    'idee',
    'punkt',
    'seite',
    'sache',
    'sachen',
    'wahrheit',
    'leute',
    'zeit',
  ]),
  fr: new Set([
    'raison',
    'raisons',
    'chose',
    'choses',
    'fois',
    'semaine',
    'semaines',
    'jour',
    'jours',
    'an',
    'ans',
    'année',
    'années',
    'mois',
    'heure',
    'heures',
    'minute',
    'minutes',
    'façon',
    'manière',
    'partie',
    'problème',
    'problèmes',
    'question',
    'questions',
    'réponse',
    'idée',
    'point',
    'côté',
    'sorte',
    'genre',
    'vérité',
    'gens',
    'temps',
    'truc',
    'trucs',
  ]),
  es: new Set([
    'razón',
    'razones',
    'cosa',
    'cosas',
    'vez',
    'veces',
    'semana',
    'semanas',
    'día',
    'días',
    'año',
    'años',
    'mes',
    'meses',
    'hora',
    'horas',
    'minuto',
    'minutos',
    'manera',
    'forma',
    'parte',
    'problema',
    'problemas',
    'pregunta',
    'preguntas',
    'respuesta',
    'idea',
    'punto',
    'lado',
    'tipo',
    'verdad',
    'gente',
    'tiempo',
  ]),
};

/** Words that put a noun after them: articles, possessives, demonstratives, quantifiers, numbers and article contractions. */
const DETERMINERS: Record<string, Set<string>> = {
  nl: new Set([
    'de',
    'het',
    'een',
    "'t",
    'mijn',
    'je',
    'jouw',
    'uw',
    'zijn',
    'haar',
    'ons',
    'onze',
    'hun',
    'deze',
    'die',
    'dit',
    'dat',
    'elk',
    'elke',
    'ieder',
    'iedere',
    'geen',
    'welke',
    'sommige',
    'alle',
    'twee',
    'drie',
    'vier',
    'vijf',
  ]),
  fr: new Set([
    'le',
    'la',
    'les',
    'l',
    'un',
    'une',
    'des',
    'du',
    'au',
    'aux',
    'mon',
    'ma',
    'mes',
    'ton',
    'ta',
    'tes',
    'son',
    'sa',
    'ses',
    'notre',
    'nos',
    'votre',
    'vos',
    'leur',
    'leurs',
    'ce',
    'cet',
    'cette',
    'ces',
    'chaque',
    'quelques',
    'plusieurs',
    'aucun',
    'aucune',
    'deux',
    'trois',
    'quatre',
    'cinq',
  ]),
  es: new Set([
    'el',
    'la',
    'los',
    'las',
    'un',
    'una',
    'unos',
    'unas',
    'mi',
    'mis',
    'tu',
    'tus',
    'su',
    'sus',
    'nuestro',
    'nuestra',
    'nuestros',
    'nuestras',
    'este',
    'esta',
    'estos',
    'estas',
    'ese',
    'esa',
    'esos',
    'esas',
    'aquel',
    'aquella',
    'cada',
    'algunos',
    'algunas',
    'varios',
    'varias',
    'ningún',
    'ninguna',
    'del',
    'al',
    'dos',
    'tres',
    'cuatro',
    'cinco',
  ]),
};

/** Adjectives that come before the noun, so "een trage app", "une petite équipe", "un gran equipo" keep them. */
const PREPOSED_ADJECTIVES: Record<string, Set<string>> = {
  nl: new Set([
    'nieuwe',
    'oude',
    'kleine',
    'grote',
    'trage',
    'langzame',
    'snelle',
    'goede',
    'slechte',
    'hele',
    'eerste',
    'laatste',
    'mobiele',
    'gratis',
    'dure',
    'goedkope',
    'heldere',
    'duidelijke',
  ]),
  fr: new Set([
    'petit',
    'petite',
    'petits',
    'petites',
    'grand',
    'grande',
    'grands',
    'grandes',
    'nouveau',
    'nouvel',
    'nouvelle',
    'nouveaux',
    'nouvelles',
    'bon',
    'bonne',
    'bons',
    'bonnes',
    'mauvais',
    'mauvaise',
    'premier',
    'première',
    'dernier',
    'dernière',
    'vieux',
    'vieille',
  ]),
  es: new Set([
    'gran',
    'grandes',
    'nuevo',
    'nueva',
    'nuevos',
    'nuevas',
    'buen',
    'buena',
    'buenos',
    'buenas',
    'mal',
    'mala',
    'primer',
    'primera',
    'último',
    'última',
    'pequeño',
    'pequeña',
    'viejo',
    'vieja',
  ]),
};

const WORD = /[\p{L}\p{N}]+(?:[-'’][\p{L}\p{N}]+)*/gu;

function wordsOf(text: string): string[] {
  return [...text.normalize('NFC').matchAll(WORD)].map(([word]) => word);
}

function lower(word: string): string {
  return word.toLocaleLowerCase();
}

/** The lower-cased words of `context`, elisions split ("l'équipe" → "l", "équipe"). */
function contextWords(context: string): string[] {
  return wordsOf(context.replace(/['’]/g, ' ')).map(lower);
}

/** Where the phrase's words stand in the context's words (first occurrence), or -1. */
function indexIn(haystack: string[], needle: string[]): number {
  for (let i = 0; i + needle.length <= haystack.length; i++) if (needle.every((word, k) => haystack[i + k] === word)) return i;
  return -1;
}

/** A noun marked by the word before it (Dutch, French, Spanish), with a preposed adjective kept. */
function determinedNoun(language: 'nl' | 'fr' | 'es', words: string[], context: string): string[] | null {
  const ctx = contextWords(context);
  const at = indexIn(ctx, words.map(lower));
  if (at <= 0 || !DETERMINERS[language]!.has(ctx[at - 1]!)) return null;
  // The determiner's noun: the first word, or the word after a preposed adjective.
  if (PREPOSED_ADJECTIVES[language]!.has(lower(words[0]!)) && words.length >= 2) return words.slice(0, 2);
  return words.slice(0, 1);
}

/** German: the phrase up to its last capitalised word (a noun), with the lower-case adjectives before it. */
function germanNoun(words: string[]): string[] | null {
  let end = words.length;
  while (end > 0 && !/^\p{Lu}/u.test(words[end - 1]!)) end--;
  if (end === 0) return null;
  let start = end - 1;
  // Lower-case words before the noun inside one keyword are its adjectives ("langsame App"); a participle or verb ends it.
  while (start > 0 && /^\p{Ll}/u.test(words[start - 1]!) && /(?:e|en|er|es|em)$/u.test(words[start - 1]!)) start--;
  return words.slice(start, end);
}

/**
 * The topic a keyword names, as written ("reporting dashboard", "langsame App", "tableau"), or
 * null when it names none: it is not a noun phrase, it opens or ends on a function word of any
 * interview language, or it is one vague noun. `context` is the text the keyword came from.
 */
export function topicPhraseOf(language: string, keyword: string, context: string): string | null {
  const lang = interviewLanguageOf(language) ?? 'en';
  let words = wordsOf(keyword);
  if (words.length === 0) return null;
  if (lang === 'de') words = germanNoun(words) ?? [];
  else if (lang === 'nl' || lang === 'fr' || lang === 'es') words = determinedNoun(lang, words, context) ?? [];
  // A function word at either end is not part of what is named ("more charts" names charts; "La verdad es que" nothing).
  while (words.length > 0 && FUNCTION_WORDS.has(lower(words[0]!))) words = words.slice(1);
  while (words.length > 0 && FUNCTION_WORDS.has(lower(words.at(-1)!))) words = words.slice(0, -1);
  if (words.length === 0 || words.some((word) => FUNCTION_WORDS.has(lower(word)))) return null;
  if (words.length === 1 && (VAGUE_NOUNS[lang]!.has(lower(words[0]!)) || VAGUE_NOUNS.en!.has(lower(words[0]!)) || [...lower(words[0]!)].length < 3))
    return null;
  return words.join(' ');
}

/**
 * A topic named by one word must recur: in more than one answer, or more than once in `texts`
 * (the participant's words it was found in). A single word said once is not yet a topic.
 */
export function isTopicLabel(label: string, answers: number, texts: readonly string[] = []): boolean {
  const words = wordsOf(label);
  if (words.length > 1 || answers > 1) return true;
  const word = lower(words[0] ?? '');
  return texts.reduce((count, text) => count + wordsOf(text).filter((candidate) => lower(candidate) === word).length, 0) > 1;
}

/** German writes its nouns with a capital letter: a topic label keeps it. */
export function isGerman(language: string): boolean {
  return interviewLanguageOf(language) === 'de';
}
