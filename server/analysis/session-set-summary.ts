import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { TSentiment } from '../../shared/schemas/transcripts.js';
import { capitalize, favouritePhrase, headOf, lemmasOf, listOf, verbatimSentences } from './key-phrases.js';
import { candidatePhrases, rankKeywords } from './keywords.js';
import { readSentences, type Sentence as NlpSentence, type Token } from './nlp.js';
import { isGerman, isTopicLabel, topicPhraseOf } from './topic-phrases.js';

/**
 * The built-in summary of a set of sessions (no network). Themes are the things participants in
 * several sessions talked about: key phrases grouped by their head noun ("reporting dashboard"
 * and "dashboards" are one theme), ranked by how many sessions mention them. Quotes are the
 * sentences most central to what everyone said (TF-IDF cosine to the centroid of all sentences,
 * the MEAD idea), taken from different sessions where possible. The summary text states the
 * themes with their reach, the mood, and the most central sentence.
 */

/** One participant utterance of the set, PII already redacted. */
export interface SummaryUtterance {
  id: string;
  sessionId: string;
  questionId: string | null;
  text: string;
  /** As the transcript job stored them (the utterance's own words); null before it ran. */
  keywords: string[] | null;
  /** The effective sentiment (an override wins); null before the transcript job ran. */
  sentiment: TSentiment | null;
  /** The session's interview language (themes are noun phrases of it); English when absent. */
  language?: string | undefined;
}

export interface SummaryQuoteDraft {
  sessionId: string;
  utteranceId: string;
  text: string;
}

export interface SummaryThemeDraft {
  title: string;
  sessionCount: number;
  quotes: SummaryQuoteDraft[];
}

export interface SessionSetSummary {
  summary: string;
  themes: SummaryThemeDraft[];
}

export const MAX_THEMES = 6;
export const MAX_QUOTES_PER_THEME = 3;
const MIN_QUOTE_WORDS = 5;
const PARSE_BATCH = 50;
const MAX_QUOTE_WORDS = 60;
const CONTENT_POS = new Set(['NOUN', 'PROPN', 'ADJ', 'VERB']);
/** Verbs that carry no topic: every answer has them. */
const LIGHT_VERBS = new Set([
  'be',
  'have',
  'do',
  'get',
  'go',
  'say',
  'make',
  'take',
  'think',
  'know',
  'want',
  'use',
  'see',
  'come',
  'give',
  'find',
  'would',
  'could',
  'should',
  'can',
  'will',
  'may',
  'might',
  'must',
]);

/** What a redaction left in the text (`[EMAIL REDACTED]`, `[REDACTED]`): no topic, and a poor quote. */
const MARKER = /\[[A-Z ]*REDACTED\]/;
const MARKER_PENALTY = 0.5;

/**
 * The tokens with each redaction marker replaced by one punctuation token, so a marker is
 * neither a key phrase nor a word a sentence is about, and breaks any phrase around it.
 */
function withoutMarkers(tokens: Token[]): Token[] {
  const out: Token[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token.value === '[') {
      const close = tokens.findIndex((candidate, index) => index > i && candidate.value === ']');
      if (close > i && tokens.slice(i + 1, close).some((inner) => inner.value.toUpperCase() === 'REDACTED')) {
        out.push({ ...token, value: '', normal: '', lemma: '', pos: 'PUNCT', type: 'punctuation' });
        i = close;
        continue;
      }
    }
    out.push(token);
  }
  return out;
}

interface ReadSentence {
  text: string;
  utterance: SummaryUtterance;
  order: number;
  words: number;
  lemmas: string[];
  centrality: number;
  /** Centrality, less for a sentence a redaction marker cuts through. */
  quality: number;
}

interface Theme {
  head: string;
  sessions: Set<string>;
  utterances: Set<string>;
  phrases: Map<string, number>;
  first: number;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

export async function summarizeSessionSet(utterances: SummaryUtterance[]): Promise<SessionSetSummary> {
  const sessionIds = new Set(utterances.map((utterance) => utterance.sessionId));
  if (sessionIds.size === 0) return { summary: '', themes: [] };

  // Parsing is the cost (about 1.5 ms an answer, 3 s for 200 sessions of 10): the event loop gets a turn between batches.
  const read: { utterance: SummaryUtterance; sentences: NlpSentence[]; lemmas: Map<string, string> }[] = [];
  for (const utterance of utterances) {
    if (read.length % PARSE_BATCH === PARSE_BATCH - 1) await yieldToEventLoop();
    const sentences = readSentences(utterance.text).map((sentence) => ({ text: sentence.text, tokens: withoutMarkers(sentence.tokens) }));
    read.push({ utterance, sentences, lemmas: lemmasOf(sentences) });
  }

  // Keywords the transcript job did not store yet are found the way it finds them, ranked across the whole set.
  const missing = read.filter(({ utterance }) => utterance.keywords === null);
  const found = rankKeywords(missing.map(({ sentences }) => sentences.flatMap((sentence) => candidatePhrases(sentence.tokens))));
  const keywordsOf = new Map(missing.map(({ utterance }, index) => [utterance.id, found[index]!]));

  const themes = new Map<string, Theme>();
  read.forEach(({ utterance, lemmas }, index) => {
    for (const keyword of utterance.keywords ?? keywordsOf.get(utterance.id) ?? []) {
      // Only noun phrases name a theme (topic-phrases.ts).
      const named = topicPhraseOf(utterance.language ?? 'en', keyword, utterance.text);
      if (named === null) continue;
      const head = headOf(lemmas, named);
      const theme = themes.get(head) ?? { head, sessions: new Set<string>(), utterances: new Set<string>(), phrases: new Map<string, number>(), first: index };
      theme.sessions.add(utterance.sessionId);
      theme.utterances.add(utterance.id);
      // German nouns keep their capital letter.
      const phrase = isGerman(utterance.language ?? 'en') ? named : named.toLowerCase();
      theme.phrases.set(phrase, (theme.phrases.get(phrase) ?? 0) + 1);
      themes.set(head, theme);
    }
  });

  const sentences = scoreSentences(read);
  const ranked = [...themes.values()]
    .filter((theme) => isTopicLabel(favouritePhrase(theme.phrases), theme.utterances.size))
    .sort((a, b) => b.sessions.size - a.sessions.size || b.utterances.size - a.utterances.size || a.first - b.first);
  // With several sessions a theme is something more than one participant raised, when there is such a thing.
  const shared = sessionIds.size > 1 ? ranked.filter((theme) => theme.sessions.size > 1) : ranked;
  const candidates = shared.length > 0 ? shared : ranked;

  const used = new Set<ReadSentence>();
  const chosen: SummaryThemeDraft[] = [];
  for (const theme of candidates) {
    if (chosen.length === MAX_THEMES) break;
    const quotes = quotesFor(theme, sentences, used);
    if (quotes.length === 0) continue;
    chosen.push({
      title: capitalize(favouritePhrase(theme.phrases)),
      sessionCount: theme.sessions.size,
      quotes: quotes.map((sentence) => ({ sessionId: sentence.utterance.sessionId, utteranceId: sentence.utterance.id, text: sentence.text })),
    });
  }

  return { summary: summaryText(sessionIds.size, chosen, utterances, sentences), themes: chosen };
}

/** Each sentence found verbatim in its utterance, with its content lemmas and its centrality to the whole set. */
function scoreSentences(read: { utterance: SummaryUtterance; sentences: NlpSentence[] }[]): ReadSentence[] {
  const sentences: ReadSentence[] = [];
  for (const { utterance, sentences: parsed } of read) {
    for (const { sentence, text } of verbatimSentences(utterance.text, parsed)) {
      const lemmas = sentence.tokens
        .filter((token) => token.type === 'word' && CONTENT_POS.has(token.pos) && token.lemma.length > 2 && !LIGHT_VERBS.has(token.lemma))
        .map((token) => token.lemma);
      sentences.push({ text, utterance, order: sentences.length, words: text.split(/\s+/).filter(Boolean).length, lemmas, centrality: 0, quality: 0 });
    }
  }
  const documentFrequency = new Map<string, number>();
  for (const sentence of sentences) for (const lemma of new Set(sentence.lemmas)) documentFrequency.set(lemma, (documentFrequency.get(lemma) ?? 0) + 1);
  const vectors = sentences.map((sentence) => {
    const vector = new Map<string, number>();
    for (const lemma of sentence.lemmas) vector.set(lemma, (vector.get(lemma) ?? 0) + 1);
    for (const [lemma, count] of vector) vector.set(lemma, count * Math.log(1 + sentences.length / documentFrequency.get(lemma)!));
    const norm = normOf(vector);
    if (norm > 0) for (const [lemma, weight] of vector) vector.set(lemma, weight / norm);
    return vector;
  });
  const centroid = new Map<string, number>();
  for (const vector of vectors) for (const [lemma, weight] of vector) centroid.set(lemma, (centroid.get(lemma) ?? 0) + weight / vectors.length);
  const centroidNorm = normOf(centroid);
  sentences.forEach((sentence, index) => {
    let dot = 0;
    for (const [lemma, weight] of vectors[index]!) dot += weight * (centroid.get(lemma) ?? 0);
    sentence.centrality = centroidNorm > 0 ? dot / centroidNorm : 0;
    sentence.quality = sentence.centrality * (MARKER.test(sentence.text) ? MARKER_PENALTY : 1);
  });
  return sentences;
}

function normOf(vector: Map<string, number>): number {
  let sum = 0;
  for (const weight of vector.values()) sum += weight * weight;
  return Math.sqrt(sum);
}

/** The theme's most central sentences, one per session first, never a sentence another theme quotes. */
function quotesFor(theme: Theme, sentences: ReadSentence[], used: Set<ReadSentence>): ReadSentence[] {
  const phrases = [...theme.phrases.keys()];
  const about = sentences
    .filter((sentence) => theme.utterances.has(sentence.utterance.id) && !used.has(sentence))
    .filter((sentence) => {
      const lower = sentence.text.toLowerCase();
      return sentence.lemmas.includes(theme.head) || phrases.some((phrase) => lower.includes(phrase));
    })
    .filter((sentence) => sentence.words >= MIN_QUOTE_WORDS && sentence.words <= MAX_QUOTE_WORDS)
    .sort((a, b) => b.quality - a.quality || a.order - b.order);
  const quotes: ReadSentence[] = [];
  const sessions = new Set<string>();
  // Two participants saying the same words are one quote: the theme's session count says how many.
  const said = new Set<string>();
  const sameWords = (sentence: ReadSentence) =>
    sentence.text
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, ' ')
      .trim();
  for (const sentence of about) {
    if (quotes.length === MAX_QUOTES_PER_THEME) break;
    if (sessions.has(sentence.utterance.sessionId) || said.has(sameWords(sentence))) continue;
    quotes.push(sentence);
    sessions.add(sentence.utterance.sessionId);
    said.add(sameWords(sentence));
  }
  for (const sentence of about) {
    if (quotes.length === MAX_QUOTES_PER_THEME) break;
    if (quotes.includes(sentence) || said.has(sameWords(sentence))) continue;
    quotes.push(sentence);
    said.add(sameWords(sentence));
  }
  for (const quote of quotes) used.add(quote);
  return quotes;
}

function summaryText(sessionCount: number, themes: SummaryThemeDraft[], utterances: SummaryUtterance[], sentences: ReadSentence[]): string {
  const parts: string[] = [];
  if (themes.length > 0) {
    const top = themes.slice(0, 3).map((theme) => `${theme.title.toLowerCase()} (${plural(theme.sessionCount, 'session')})`);
    parts.push(`Across ${plural(sessionCount, 'session')}, participants talked most about ${listOf(top)}.`);
  } else {
    parts.push(`Across ${plural(sessionCount, 'session')}, no theme came up in more than one answer.`);
  }
  const rated = utterances.filter((utterance) => utterance.sentiment !== null);
  if (rated.length > 0) {
    const percent = (sentiment: TSentiment) => Math.round((rated.filter((utterance) => utterance.sentiment === sentiment).length / rated.length) * 100);
    parts.push(
      `Of ${plural(rated.length, 'answer')} rated for sentiment, ${percent('positive')}% were positive, ${percent('neutral')}% neutral and ${percent('negative')}% negative.`,
    );
  }
  const central = sentences
    .filter((sentence) => sentence.words >= MIN_QUOTE_WORDS && sentence.words <= MAX_QUOTE_WORDS)
    .sort((a, b) => b.quality - a.quality)[0];
  if (central) parts.push(`The most representative answer: “${central.text}”`);
  return parts.join(' ');
}
