import type { Token } from './nlp.js';

/**
 * Keywords and key phrases of an utterance: noun phrases found from wink-nlp's part-of-speech
 * tags (adjectives, nouns and noun-like participles ending in a noun: "onboarding emails", "broken
 * links", "customer support team"), as they are written in the text, ranked by how much of the
 * whole interview they are about (RAKE's idea: a phrase scores the sum of its words' degree over
 * frequency, counted across every utterance of the session).
 */

/** Nouns that name nothing a researcher would tag. */
const GENERIC_NOUNS = new Set([
  'thing',
  'things',
  'stuff',
  'lot',
  'lots',
  'bit',
  'way',
  'ways',
  'kind',
  'sort',
  'part',
  'something',
  'anything',
  'everything',
  'nothing',
  'someone',
  'anyone',
  'everyone',
  'one',
  'ones',
  'time',
  'times',
  'day',
  'days',
  'week',
  'weeks',
  'year',
  'years',
  'month',
  'months',
  'moment',
  'minute',
  'minutes',
  'hour',
  'hours',
  'point',
  'fact',
  'case',
  'question',
  'answer',
  'idea',
  'guy',
  'guys',
  'people',
  'person',
  'yeah',
  'yes',
  'no',
  'okay',
  'ok',
  'lol',
  'hmm',
  'um',
  'uh',
  'sense',
  'end',
  'start',
  'side',
  'number',
  'instance',
  'example',
  'reason',
  'couple',
  'love',
  'half',
  'rest',
  'whole',
  'while',
  'problem',
  'problems',
  'issue',
  'issues',
  'experience',
  'today',
  'tomorrow',
  'yesterday',
  'morning',
  'afternoon',
  'evening',
  'night',
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
]);

/** Words that may open a phrase only when a noun follows: "broken links", "onboarding emails". */
const MODIFIER_POS = new Set(['ADJ', 'NOUN', 'PROPN', 'VERB']);
const HEAD_POS = new Set(['NOUN', 'PROPN']);
const MAX_PHRASE_WORDS = 4;
export const MAX_KEYWORDS_PER_UTTERANCE = 5;

/** A candidate phrase of one utterance: its words (lower case, for counting) and its text as written. */
export interface Candidate {
  words: string[];
  text: string;
}

function isContentWord(token: Token): boolean {
  return token.type === 'word' && /\p{L}/u.test(token.value) && token.value.length > 1 && !/['’]/.test(token.value);
}

/**
 * Hyphenated compounds ("in-app", "check-in", "year-end") as the one word they are: wink-nlp
 * splits them into word, hyphen, word. The compound modifies like an adjective ("in-app chat").
 */
function joinHyphenated(tokens: Token[]): Token[] {
  const joined: Token[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const hyphen = tokens[i + 1];
    const next = tokens[i + 2];
    if (hyphen?.value === '-' && hyphen.precedingSpaces === '' && next && next.precedingSpaces === '' && tokens[i]!.type === 'word' && next.type === 'word') {
      const token = tokens[i]!;
      const head = HEAD_POS.has(next.pos) ? next.pos : 'ADJ';
      joined.push({
        ...token,
        value: `${token.value}-${next.value}`,
        normal: `${token.normal}-${next.normal}`,
        lemma: `${token.lemma}-${next.lemma}`,
        pos: head,
        negated: token.negated || next.negated,
      });
      i += 2;
    } else {
      joined.push(tokens[i]!);
    }
  }
  return joined;
}

/**
 * Noun phrases of a sentence. A verb joins a phrase only as a modifier in participle form
 * ("broken", "onboarding"), never as its head, so "like pricing" or "took days" are not phrases.
 */
export function candidatePhrases(sentenceTokens: Token[]): Candidate[] {
  const tokens = joinHyphenated(sentenceTokens);
  const phrases: Candidate[] = [];
  let run: Token[] = [];
  const flush = () => {
    // Trim to the last noun; drop leading modifiers until the phrase fits.
    let end = run.length;
    while (end > 0 && !HEAD_POS.has(run[end - 1]!.pos)) end--;
    let words = run.slice(0, end);
    while (words.length > MAX_PHRASE_WORDS) words = words.slice(1);
    while (words.length > 0 && words[0]!.pos === 'VERB' && !/(?:ing|ed|en)$/i.test(words[0]!.value)) words = words.slice(1);
    if (words.length > 0) {
      const head = words.at(-1)!;
      const single = words.length === 1;
      if (!(single && GENERIC_NOUNS.has(head.normal)) && words.every(isContentWord)) {
        const text = words.map((token, i) => (i === 0 ? token.value : token.precedingSpaces + token.value)).join('');
        phrases.push({ words: words.map((token) => token.normal), text });
      }
    }
    run = [];
  };
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    // "the broken links", "had broken links", but not "I asked support": a participle after a subject is the verb.
    const participle =
      token.pos === 'VERB' &&
      /(?:ing|ed|en)$/i.test(token.value) &&
      HEAD_POS.has(tokens[i + 1]?.pos ?? '') &&
      !['PRON', 'PROPN', 'NOUN'].includes(tokens[i - 1]?.pos ?? '');
    if (MODIFIER_POS.has(token.pos) && (token.pos !== 'VERB' || participle) && isContentWord(token)) {
      run.push(token);
    } else {
      flush();
    }
  }
  flush();
  return phrases;
}

/**
 * Picks each utterance's key phrases given the candidates of every utterance of the session (so
 * a phrase that recurs across the interview ranks above one said once in passing).
 */
export function rankKeywords(candidatesByUtterance: Candidate[][]): string[][] {
  const frequency = new Map<string, number>();
  const degree = new Map<string, number>();
  for (const candidates of candidatesByUtterance) {
    for (const candidate of candidates) {
      for (const word of candidate.words) {
        frequency.set(word, (frequency.get(word) ?? 0) + 1);
        degree.set(word, (degree.get(word) ?? 0) + candidate.words.length);
      }
    }
  }
  return candidatesByUtterance.map((candidates) => {
    const seen = new Set<string>();
    return candidates
      .map((candidate) => ({
        text: candidate.text,
        key: candidate.words.join(' '),
        score:
          candidate.words.reduce((sum, word) => sum + degree.get(word)! / frequency.get(word)!, 0) +
          candidate.words.reduce((sum, word) => sum + frequency.get(word)! - 1, 0) * 0.5,
      }))
      .filter((candidate) => (seen.has(candidate.key) ? false : (seen.add(candidate.key), true)))
      .sort((a, b) => b.score - a.score)
      .slice(0, MAX_KEYWORDS_PER_UTTERANCE)
      .map((candidate) => candidate.text);
  });
}
