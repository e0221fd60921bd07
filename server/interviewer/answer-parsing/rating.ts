import type { CompiledLexicon } from './lexicon.js';
import { denominatorFollows, isDenominator, numberRole, readIntervals, readNumbers, type NumberMention } from './numbers.js';
import { isNegated, isWord, matchPhrase, phraseAt, phraseEndingAt, scanPhrases, tokenize, type PhrasePattern, type Token } from './text.js';

export interface RatingScale {
  min: number;
  max: number;
  minLabel?: string | undefined;
  maxLabel?: string | undefined;
}

/**
 * The rating in an answer, or null. Every number is first given a role (see `numberRole`); the
 * values left are dropped when negated ("not a 5"), bounded ("at least a 4") or said before a
 * correction ("a 3, no actually a 4"). One distinct whole value within the scale is the answer;
 * none, several ("3 or 4", "between 3 and 4") or a fraction ("three and a half") is null.
 * "X out of Y" with Y other than the scale's maximum is null: rescaling would be a guess.
 * With no number, the scale's labels are tried.
 */
export function parseRating(scale: RatingScale, text: string, lexicon: CompiledLexicon): number | null {
  const tokens = tokenize(text, lexicon.source.apostrophes);
  const percentIsUnit = scale.max === 100;
  let candidates: { value: number; fractional: boolean; start: number }[] = [];
  const mentions = readNumbers(tokens, lexicon);
  const scaleRestated = readIntervals(tokens, mentions, lexicon).filter((interval) => interval.low === scale.min && interval.high === scale.max);
  for (const mention of mentions) {
    if (mention.count) continue;
    // "on a scale of 1 to 5, a 4": the participant repeating the scale, not answering.
    if (scaleRestated.some((interval) => mention.start >= interval.start && mention.end <= interval.end)) continue;
    if (isDenominator(tokens, mention.start, lexicon)) {
      if (mention.value !== scale.max) return null;
      continue;
    }
    // "solid 8/10": a number given with the scale's maximum is a rating whatever stands before it.
    const withMaximum = denominatorFollows(tokens, mention.end, lexicon);
    if (!withMaximum && numberRole(tokens, mention, lexicon, { percentIsUnit }) !== 'value') continue;
    if (isBound(tokens, mention, lexicon)) continue;
    if (isNegated(tokens, mention.start, lexicon)) continue;
    candidates.push({ value: mention.value, fractional: mention.fractional, start: mention.start });
  }
  const corrections = scanPhrases(tokens, [{ tag: 'correction', patterns: lexicon.correctionPhrases }]);
  for (const correction of corrections.reverse()) {
    if (candidates.some((candidate) => candidate.start >= correction.end)) {
      candidates = candidates.filter((candidate) => candidate.start >= correction.end);
      break;
    }
  }
  if (candidates.length === 0) return labelValue(scale, tokens, lexicon);
  if (candidates.some((candidate) => candidate.fractional)) return null;
  const values = new Set(candidates.map((candidate) => candidate.value));
  if (values.size !== 1) return null;
  const [value] = values;
  return value !== undefined && value >= scale.min && value <= scale.max ? value : null;
}

function isBound(tokens: readonly Token[], mention: NumberMention, lexicon: CompiledLexicon): boolean {
  const beforeArticle = isWord(tokens[mention.start - 1]) && lexicon.articles.has(tokens[mention.start - 1]!.text);
  const start = beforeArticle ? mention.start - 1 : mention.start;
  const { above, below, atLeast, atMost, orMore, orLess } = lexicon.bounds;
  return (
    [above, below, atLeast, atMost].some((patterns) => phraseEndingAt(tokens, start, patterns) > 0) ||
    [orMore, orLess].some((patterns) => phraseAt(tokens, mention.end, patterns) > 0)
  );
}

/**
 * A scale label said in words maps to its end of the scale ("very easy" → max). Words both labels
 * share may be left out ("not at all" for "Not at all likely") unless they are intensifiers or
 * negators, which change the point meant ("easy" is not "very easy"). A shortened label must not
 * have another word in the left-out slot ("extremely unlikely" is not "extremely likely"). A label
 * that is negated or weakened ("not very easy", "pretty poor") is short of its end of the scale.
 */
function labelValue(scale: RatingScale, tokens: readonly Token[], lexicon: CompiledLexicon): number | null {
  const labels = [
    { text: scale.minLabel, value: scale.min },
    { text: scale.maxLabel, value: scale.max },
  ].flatMap((label) => (label.text ? [{ text: label.text, words: tokenize(label.text, lexicon.source.apostrophes).filter(isWord), value: label.value }] : []));
  if (labels.length === 0) return null;
  const [first, second] = labels.map((label) => new Set(label.words.map((token) => token.text)));
  const leaveOutable = (word: string) =>
    first !== undefined && second !== undefined && first.has(word) && second.has(word) && !lexicon.intensifiers.has(word) && !lexicon.negators.has(word);
  const matched = new Set<number>();
  for (const label of labels) {
    const pattern: PhrasePattern = {
      source: label.text,
      parts: label.words.map((token) => ({ alternatives: [[token.text]], optional: leaveOutable(token.text) })),
    };
    if (pattern.parts.every((part) => part.optional)) continue;
    for (let start = 0; start < tokens.length; start += 1) {
      const length = matchPhrase(tokens, start, pattern);
      if (length === 0) continue;
      const shortened = length < label.words.length;
      const slotTaken = (token: Token | undefined) => isWord(token) && !lexicon.functionWords.has(token.text);
      if (shortened && (slotTaken(tokens[start - 1]) || slotTaken(tokens[start + length]))) continue;
      if (isNegated(tokens, start, lexicon)) continue;
      if (phraseEndingAt(tokens, start, lexicon.downtoners) > 0) continue;
      matched.add(label.value);
    }
  }
  const [value] = matched;
  return matched.size === 1 && value !== undefined ? value : null;
}
