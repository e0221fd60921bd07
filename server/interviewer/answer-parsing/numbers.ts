import type { CompiledLexicon } from './lexicon.js';
import { isWord, matchPhrase, phraseAt, phraseEndingAt, type PhrasePattern, type Token } from './text.js';

/** A number the participant said: digits ("4", "3.5") or words ("twenty-five", "a hundred", "twice"). */
export interface NumberMention {
  value: number;
  /** Token range [start, end). */
  start: number;
  end: number;
  /** "3.5", "three and a half", "eight point five": not a whole number. */
  fractional: boolean;
  /** A counting adverb ("once", "twice"): a count, never a rating or an option number. */
  count: boolean;
  /** A cardinal that can also be a pronoun ("one"). */
  pronounLike: boolean;
}

/** Every number in the tokens, in order; what each one is doing is `numberRole`'s question. */
export function readNumbers(tokens: readonly Token[], lexicon: CompiledLexicon): NumberMention[] {
  const mentions: NumberMention[] = [];
  let index = 0;
  while (index < tokens.length) {
    const token = tokens[index]!;
    const start = index;
    let value: number;
    let count = false;
    let pronounLike = false;
    if (token.kind === 'number') {
      value = token.value!;
      index += 1;
    } else if (isWord(token) && lexicon.units.has(token.text)) {
      value = lexicon.units.get(token.text)!;
      pronounLike = lexicon.pronounNumbers.has(token.text);
      index += 1;
    } else if (isWord(token) && lexicon.tens.has(token.text)) {
      value = lexicon.tens.get(token.text)!;
      index += 1;
      // "twenty three", "twenty-three"
      const afterHyphen = tokens[index]?.text === '-' ? index + 1 : index;
      const unitToken = tokens[afterHyphen];
      const unit = isWord(unitToken) ? lexicon.units.get(unitToken.text) : undefined;
      if (unit !== undefined && unit > 0 && unit < 10) {
        value += unit;
        index = afterHyphen + 1;
      }
    } else if (isWord(token) && lexicon.hundred.has(token.text)) {
      value = 100; // "a hundred"
      index += 1;
    } else if (isWord(token) && lexicon.counts.has(token.text)) {
      value = lexicon.counts.get(token.text)!;
      count = true;
      index += 1;
    } else {
      index += 1;
      continue;
    }
    if (!count && value < 100 && isWord(tokens[index]) && lexicon.hundred.has(tokens[index]!.text)) {
      value *= 100; // "one hundred", "two hundred"
      pronounLike = false;
      index += 1;
    }
    let fractional = !Number.isInteger(value);
    for (const pattern of lexicon.fractionPhrases) {
      const length = matchPhrase(tokens, index, pattern);
      if (length > 0) {
        fractional = true;
        index += length;
        // "eight point five": the digits after "point" belong to this number.
        if (tokens[index]?.kind === 'number' || lexicon.units.has(tokens[index]?.text ?? '')) index += 1;
        break;
      }
    }
    mentions.push({ value, start, end: index, fractional, count, pronounLike });
  }
  return mentions;
}

export type NumberRole = 'value' | 'quantity' | 'identifier' | 'pronoun';

export interface NumberContextOptions {
  /** Words that may follow the number and still leave it a value (a rating's units, an option's nouns). */
  allowedFollowers?: ReadonlySet<string>;
  /** Whether "%" and "percent" after the number keep it a value (a 0–100 scale). */
  percentIsUnit?: boolean;
}

/**
 * What a number is doing in its sentence. A number followed by a noun counts things ("2 kids",
 * "3 times"); one preceded by a noun names something ("version 2", "windows 11"); "one" after a
 * determiner is a pronoun ("the new one"). Only what is left is a value. The test is "is the
 * neighbour a function word", so nouns never need listing; an unknown neighbour makes the number
 * a non-value, which errs towards null.
 */
export function numberRole(tokens: readonly Token[], mention: NumberMention, lexicon: CompiledLexicon, options: NumberContextOptions = {}): NumberRole {
  if (!lexicon.knowsWords) return 'value';
  const previous = tokens[mention.start - 1];
  const next = tokens[mention.end];
  if (mention.pronounLike) {
    if (isWord(previous) && lexicon.pronounDeterminers.has(previous.text)) return 'pronoun';
    if (isWord(next) && !denominatorFollows(tokens, mention.end, lexicon) && outOfLength(tokens, mention.end, lexicon) > 0) {
      return 'pronoun'; // "one of the best"
    }
  }
  if (isWord(next)) {
    if (outOfLength(tokens, mention.end, lexicon) > 0) {
      if (!denominatorFollows(tokens, mention.end, lexicon)) return 'quantity'; // "two of them"
    } else if (phraseAt(tokens, mention.end, lexicon.percentWords) > 0) {
      if (!options.percentIsUnit) return 'quantity';
    } else if (
      !lexicon.functionWords.has(next.text) &&
      !lexicon.ratingUnits.has(next.text) &&
      !lexicon.units.has(next.text) &&
      !lexicon.tens.has(next.text) &&
      !options.allowedFollowers?.has(next.text)
    ) {
      return 'quantity';
    }
  } else if (next?.text === '%' && !options.percentIsUnit) {
    return 'quantity';
  }
  if (isWord(previous) && !isFunctionLike(previous.text, lexicon)) {
    // "a solid 4", "a perfect 10": an adjective between an article and the number.
    const beforeAdjective = tokens[mention.start - 2];
    if (!(isWord(beforeAdjective) && lexicon.articles.has(beforeAdjective.text) && !lexicon.ordinals.has(previous.text))) {
      return 'identifier';
    }
  }
  return 'value';
}

function isFunctionLike(word: string, lexicon: CompiledLexicon): boolean {
  return lexicon.functionWords.has(word) || lexicon.referenceWords.has(word) || lexicon.units.has(word) || lexicon.tens.has(word) || lexicon.negators.has(word);
}

/** Length of an "out of" phrase at `index`, which is right after a number. */
function outOfLength(tokens: readonly Token[], index: number, lexicon: CompiledLexicon): number {
  if (tokens[index]?.text === '/') return 1;
  return Math.max(phraseAt(tokens, index, lexicon.outOf), phraseAt(tokens, index, lexicon.outOfAfterNumber));
}

function isNumberToken(token: Token | undefined, lexicon: CompiledLexicon): boolean {
  return token?.kind === 'number' || (isWord(token) && (lexicon.units.has(token.text) || lexicon.tens.has(token.text)));
}

/** Whether a scale maximum follows the number that ends at `index`: "4 out of 5", "4/5", "four of five". */
export function denominatorFollows(tokens: readonly Token[], index: number, lexicon: CompiledLexicon): boolean {
  const length = outOfLength(tokens, index, lexicon);
  return length > 0 && isNumberToken(tokens[index + length], lexicon);
}

/** Whether the number at `start` is introduced by "out of" or "/": a scale maximum, not a rating. */
export function isDenominator(tokens: readonly Token[], start: number, lexicon: CompiledLexicon): boolean {
  if (tokens[start - 1]?.text === '/') return true;
  if (phraseEndingAt(tokens, start, lexicon.outOf) > 0) return true;
  const afterNumber = phraseEndingAt(tokens, start, lexicon.outOfAfterNumber);
  return afterNumber > 0 && isNumberToken(tokens[start - afterNumber - 1], lexicon);
}

/** An integer interval; `null` ends are unbounded. */
export interface Interval {
  low: number | null;
  high: number | null;
  /** Token range covered by the expression. */
  start: number;
  end: number;
}

/**
 * Numbers with their bounds and ranges, as integer intervals: "29" → [29, 29], "25 to 34" and
 * "between 25 and 34" → [25, 34], "under 18" → [.., 17], "45 or older" → [45, ..], "more than
 * 5" → [6, ..]. Used on both sides of a multiple-choice question whose options are numeric.
 */
export function readIntervals(tokens: readonly Token[], mentions: readonly NumberMention[], lexicon: CompiledLexicon): Interval[] {
  const intervals: Interval[] = [];
  for (let index = 0; index < mentions.length; index += 1) {
    const mention = mentions[index]!;
    const following = mentions[index + 1];
    const openedBy = tokens[mention.start - 1];
    const joiner = phraseAt(tokens, mention.end, lexicon.rangeJoiners);
    const joinedTo = following && joiner > 0 && following.start === mention.end + joiner ? following : null;
    const betweenAnd =
      following &&
      isWord(openedBy) &&
      lexicon.rangeOpeners.has(openedBy.text) &&
      lexicon.rangeAnd.has(tokens[mention.end]?.text ?? '') &&
      following.start === mention.end + 1
        ? following
        : null;
    const rangeEnd = joinedTo ?? betweenAnd;
    if (rangeEnd) {
      intervals.push({
        low: Math.min(mention.value, rangeEnd.value),
        high: Math.max(mention.value, rangeEnd.value),
        start: betweenAnd ? mention.start - 1 : mention.start,
        end: rangeEnd.end,
      });
      index += 1;
      continue;
    }
    const value = mention.value;
    const before = (patterns: readonly PhrasePattern[]) => phraseEndingAt(tokens, mention.start, patterns);
    const after = (patterns: readonly PhrasePattern[]) => phraseAt(tokens, mention.end, patterns);
    const boundBefore: [number, Omit<Interval, 'start' | 'end'>][] = [
      [before(lexicon.bounds.above), { low: Math.floor(value) + 1, high: null }],
      [before(lexicon.bounds.below), { low: null, high: Math.ceil(value) - 1 }],
      [before(lexicon.bounds.atLeast), { low: value, high: null }],
      [before(lexicon.bounds.atMost), { low: null, high: value }],
    ];
    const boundAfter: [number, Omit<Interval, 'start' | 'end'>][] = [
      [after(lexicon.bounds.orMore), { low: value, high: null }],
      [after(lexicon.bounds.orLess), { low: null, high: value }],
    ];
    const longestBefore = boundBefore.reduce((best, candidate) => (candidate[0] > best[0] ? candidate : best));
    const longestAfter = boundAfter.reduce((best, candidate) => (candidate[0] > best[0] ? candidate : best));
    if (longestAfter[0] > 0) {
      intervals.push({ ...longestAfter[1], start: mention.start, end: mention.end + longestAfter[0] });
    } else if (longestBefore[0] > 0) {
      intervals.push({ ...longestBefore[1], start: mention.start - longestBefore[0], end: mention.end });
    } else {
      intervals.push({ low: value, high: value, start: mention.start, end: mention.end });
    }
  }
  return intervals;
}

/** Whether `inner` lies within `outer`. */
export function intervalWithin(inner: Interval, outer: Interval): boolean {
  const lowOk = outer.low === null || (inner.low !== null && inner.low >= outer.low);
  const highOk = outer.high === null || (inner.high !== null && inner.high <= outer.high);
  return lowOk && highOk;
}
