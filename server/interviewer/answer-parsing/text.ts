/**
 * Text layer shared by the answer parsers: normalisation, tokens, lexicon phrase patterns and the
 * reach of a negation. Knows no language itself; everything language-specific comes from the lexicon.
 */

export type TokenKind = 'word' | 'number' | 'ordinal' | 'symbol' | 'boundary';

export interface Token {
  text: string;
  kind: TokenKind;
  /** Numeric value of `number` and `ordinal` tokens ("4", "3.5", "2nd"). */
  value?: number;
}

export type ApostropheMode = 'drop' | 'split';

/**
 * Lowercase, fold diacritics and typographic quotes. Diacritics are folded because speech-to-text
 * and hurried typing drop them inconsistently ("cafe" for "café"), and options must still match.
 */
function normalizeText(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/[\u2018\u2019\u02bc`´]/g, "'")
    .replace(/[\u2010-\u2015]/g, '-')
    .toLowerCase();
}

const TOKEN_PATTERN = /(\d+(?:\.\d+)?)(st|nd|rd|th)?(?![\p{L}\d])|(\d+)|(\p{L}+(?:'\p{L}+)*)|([/%+-])|([.,;:!?()…"]+)/gu;

/**
 * Splits text into words, numbers, a few meaningful symbols (`/ - % +`) and boundaries
 * (punctuation that ends a phrase: negation and context never reach across them).
 */
export function tokenize(text: string, apostrophes: ApostropheMode): Token[] {
  const tokens: Token[] = [];
  for (const match of normalizeText(text).matchAll(TOKEN_PATTERN)) {
    const [, decimal, ordinalSuffix, digitsBeforeLetters, word, symbol, boundary] = match;
    if (decimal !== undefined) {
      tokens.push({ text: decimal, kind: ordinalSuffix ? 'ordinal' : 'number', value: Number(decimal) });
    } else if (digitsBeforeLetters !== undefined) {
      // "4ish", "3x": the digits stand alone, the letters become the next token.
      tokens.push({ text: digitsBeforeLetters, kind: 'number', value: Number(digitsBeforeLetters) });
    } else if (word !== undefined) {
      if (apostrophes === 'drop') {
        tokens.push({ text: word.replace(/'/g, ''), kind: 'word' });
      } else {
        for (const part of word.split("'")) if (part) tokens.push({ text: part, kind: 'word' });
      }
    } else if (symbol !== undefined) {
      tokens.push({ text: symbol, kind: 'symbol' });
    } else if (boundary !== undefined) {
      tokens.push({ text: boundary, kind: 'boundary' });
    }
  }
  return tokens;
}

/** Normalises one lexicon word the way `tokenize` normalises text, so lexicons can be written naturally ("don't"). */
export function normalizeWord(word: string, apostrophes: ApostropheMode): string[] {
  return tokenize(word, apostrophes).map((token) => token.text);
}

/**
 * A lexicon phrase: space-separated words, `(a|b)` for alternatives, a trailing `?` for an
 * optional part: `"(i'm|i am)? not (really|quite)? sure"`.
 */
export interface PhrasePattern {
  source: string;
  parts: { alternatives: string[][]; optional: boolean }[];
  /** Words a match can start with, so most positions are rejected without trying the pattern. */
  firstWords?: Set<string>;
}

function firstWordsOf(parts: PhrasePattern['parts']): Set<string> {
  const first = new Set<string>();
  for (const part of parts) {
    for (const words of part.alternatives) if (words[0] !== undefined) first.add(words[0]);
    if (!part.optional) break;
  }
  return first;
}

export function compilePhrase(source: string, apostrophes: ApostropheMode): PhrasePattern {
  const parts: PhrasePattern['parts'] = [];
  for (const raw of source.trim().split(/\s+(?![^(]*\))/)) {
    const optional = raw.endsWith('?') && raw.length > 1;
    const body = optional ? raw.slice(0, -1) : raw;
    const inner = body.startsWith('(') && body.endsWith(')') ? body.slice(1, -1) : body;
    const alternatives = inner
      .split('|')
      .map((alternative) => alternative.split(/\s+/).flatMap((word) => normalizeWord(word, apostrophes)))
      .filter((words) => words.length > 0);
    parts.push({ alternatives, optional });
  }
  return { source, parts, firstWords: firstWordsOf(parts) };
}

/** Every length in tokens with which `pattern` matches at `start` (optional parts allow several). */
function phraseMatchLengths(tokens: readonly Token[], start: number, pattern: PhrasePattern): Set<number> {
  const lengths = new Set<number>();
  const first = tokens[start];
  if (!first || (pattern.firstWords && !pattern.firstWords.has(first.text))) return lengths;
  const tryFrom = (partIndex: number, position: number): void => {
    if (partIndex === pattern.parts.length) {
      if (position > start) lengths.add(position - start);
      return;
    }
    const part = pattern.parts[partIndex]!;
    if (part.optional) tryFrom(partIndex + 1, position);
    for (const words of part.alternatives) {
      if (words.every((word, offset) => tokens[position + offset]?.text === word)) tryFrom(partIndex + 1, position + words.length);
    }
  };
  tryFrom(0, start);
  return lengths;
}

/** Length in tokens of the longest way `pattern` matches at `start`, or 0. */
export function matchPhrase(tokens: readonly Token[], start: number, pattern: PhrasePattern): number {
  return Math.max(0, ...phraseMatchLengths(tokens, start, pattern));
}

export interface PhraseHit<TTag> {
  tag: TTag;
  start: number;
  end: number;
}

/**
 * Scans left to right; at each position the longest phrase of any table wins and its tokens are
 * consumed. Longest-first is what lets "not really sure" be uncertainty rather than "not really".
 */
export function scanPhrases<TTag>(tokens: readonly Token[], tables: readonly { tag: TTag; patterns: readonly PhrasePattern[] }[]): PhraseHit<TTag>[] {
  const hits: PhraseHit<TTag>[] = [];
  let position = 0;
  while (position < tokens.length) {
    let best: PhraseHit<TTag> | null = null;
    for (const table of tables) {
      for (const pattern of table.patterns) {
        const length = matchPhrase(tokens, position, pattern);
        if (length > 0 && (best === null || length > best.end - best.start)) {
          best = { tag: table.tag, start: position, end: position + length };
        }
      }
    }
    if (best) {
      hits.push(best);
      position = best.end;
    } else {
      position += 1;
    }
  }
  return hits;
}

export function isWord(token: Token | undefined): token is Token & { kind: 'word' } {
  return token?.kind === 'word';
}

/** A phrase edge: start or end of the text, or punctuation. */
export function isEdge(token: Token | undefined): boolean {
  return token === undefined || token.kind === 'boundary';
}

const LONGEST_PHRASE = 8;

/** Length of the longest phrase from `patterns` that ends exactly at `end` (exclusive), or 0. */
export function phraseEndingAt(tokens: readonly Token[], end: number, patterns: readonly PhrasePattern[]): number {
  for (let start = Math.max(0, end - LONGEST_PHRASE); start < end; start += 1) {
    for (const pattern of patterns) {
      if (phraseMatchLengths(tokens, start, pattern).has(end - start)) return end - start;
    }
  }
  return 0;
}

/** Length of a phrase from `patterns` that starts at `start`, or 0. */
export function phraseAt(tokens: readonly Token[], start: number, patterns: readonly PhrasePattern[]): number {
  let best = 0;
  for (const pattern of patterns) best = Math.max(best, matchPhrase(tokens, start, pattern));
  return best;
}

/**
 * Whether a negator governs the item starting at `start`: walking left across words a negation
 * reaches over ("not even a 3", "wouldn't give it a 10"), stopping at punctuation or any other word.
 */
export function isNegated(
  tokens: readonly Token[],
  start: number,
  lexicon: { negators: ReadonlySet<string>; negationTransparent: ReadonlySet<string> },
): boolean {
  for (let index = start - 1; index >= 0; index -= 1) {
    const token = tokens[index]!;
    if (!isWord(token)) return false;
    if (lexicon.negators.has(token.text)) return true;
    if (!lexicon.negationTransparent.has(token.text)) return false;
  }
  return false;
}
