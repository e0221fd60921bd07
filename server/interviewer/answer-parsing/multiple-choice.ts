import { evokedConcepts, isNoneOfThese, noneOfTheseAt, type CompiledConcepts, type ConceptEvidence } from './concept-match.js';
import type { CompiledLexicon } from './lexicon.js';
import { intervalWithin, numberRole, readIntervals, readNumbers, type Interval, type NumberMention } from './numbers.js';
import { readPolarity } from './polarity.js';
import { isEdge, isNegated, isWord, phraseEndingAt, tokenize, type Token } from './text.js';

/** A word or number of a text, with what it is compared by. */
interface Term {
  text: string;
  /** Stem for words, the value for numbers, so "reports" meets "reporting" and "two" meets "2". */
  key: string;
  /** Index in the token list. */
  index: number;
  /** Punctuation between this term and the previous one: a match never spans it. */
  gapBefore: boolean;
}

interface PreparedOption {
  text: string;
  tokens: Token[];
  terms: Term[];
  keys: Set<string>;
}

/** A stretch of the answer that lines up with a stretch of one option. */
interface Block {
  option: number;
  answerStart: number;
  answerEnd: number;
  optionStart: number;
  optionEnd: number;
}

/**
 * How an answer named its option, strongest first: the option's whole text (`exact`), its words
 * or an unambiguous part of them (`words`), a number within a numeric option (`number`), the
 * answer's polarity for Yes/No options (`polarity`), a word of the same concept (`synonym`:
 * "coworker" for "Friend or colleague"), a phrase that says the concept (`paraphrase`: "looked it
 * up" for "Search engine"), its position (`ordinal`: "the second one", "b"). `none`: the answer
 * rejects every option ("none of those") and the question has no such option.
 */
export type ChoiceMatch = 'exact' | 'words' | 'number' | 'polarity' | 'synonym' | 'paraphrase' | 'ordinal' | 'none';

export interface ChoiceReading {
  /** The option exactly as the script writes it; null for none, for an answer naming several, or nothing. */
  value: string | null;
  /** How it was named; null when no option was (or several were). */
  match: ChoiceMatch | null;
}

/** Ranks evidence kinds when one option is named several ways: the strongest one says how. */
const MATCH_STRENGTH: readonly ChoiceMatch[] = ['exact', 'words', 'number', 'polarity', 'synonym', 'paraphrase', 'ordinal'];

/** The option an answer names, or null: see `readChoice`. */
export function parseChoice(options: readonly string[], text: string, lexicon: CompiledLexicon, concepts: CompiledConcepts | null = null): string | null {
  return readChoice(options, text, lexicon, concepts).value;
}

/**
 * The option an answer names, exactly as written in the script, and how it was named.
 * References are collected from every way of naming an option by its words, and the answer stands
 * only if they all point to the same one:
 * - the option's words, in full or an unambiguous part ("probably the chat" → "In-app chat"),
 *   compared by stem and across compound splits ("e-mail", "mac os", "nonprofit");
 * - its position: "2", "option 2", "number two", "the second one", "the last one", and letters
 *   "b" / "option b" (a letter alone or after "option"/"letter"; scripts carry no letters, but
 *   participants used to lettered forms answer that way, and a lone letter means nothing else);
 * - for options that are numbers or ranges ("18-24", "45 or older"), the number said ("I'm 29");
 * - for options that are answer particles ("Yes", "No", "Not sure"), the answer's polarity.
 * Negated mentions ("not email") are dropped and a part several options share names none of
 * them; a position beyond the option count makes the whole answer null.
 *
 * When nothing names an option by its words, by meaning (`concepts`, see concepts.ts): the
 * answer's concepts ("coworker", "told me" → people) name the one option that evokes one of them
 * ("Friend or colleague"); two options evoked is no answer. "None of those" names an option that
 * says the same ("None of the above"), else it is `none`. A word match that the answer's
 * concepts point elsewhere keeps its option. Option words right after an approximator ("almost
 * never") do not name the option.
 */
export function readChoice(options: readonly string[], text: string, lexicon: CompiledLexicon, concepts: CompiledConcepts | null = null): ChoiceReading {
  const nothing: ChoiceReading = { value: null, match: null };
  const mode = lexicon.source.apostrophes;
  const tokens = tokenize(text, mode);
  const terms = toTerms(tokens, lexicon);
  if (terms.length === 0) return nothing;
  const prepared: PreparedOption[] = options.map((option) => {
    const optionTokens = tokenize(option, mode);
    const optionTerms = toTerms(optionTokens, lexicon);
    return { text: option, tokens: optionTokens, terms: optionTerms, keys: new Set(optionTerms.map((term) => term.key)) };
  });

  const whole = terms.map((term) => term.text).join('');
  const exact = prepared.filter((option) => option.terms.map((term) => term.text).join('') === whole);
  if (exact.length === 1) return { value: exact[0]!.text, match: 'exact' };

  const referenced = new Map<number, ChoiceMatch>();
  const refer = (option: number, match: ChoiceMatch) => {
    const known = referenced.get(option);
    if (known === undefined || MATCH_STRENGTH.indexOf(match) < MATCH_STRENGTH.indexOf(known)) referenced.set(option, match);
  };
  const polarityOptions = polarityClasses(prepared, lexicon);
  if (polarityOptions.size > 0) {
    const { polarity } = readPolarity(tokens, lexicon);
    if (polarity === 'conflict') return nothing;
    const option = polarityOptions.get(polarity);
    if (option !== undefined) refer(option, 'polarity');
  }
  // A particle option is named by polarity only: "no idea" must not name "No" by its first word.
  const particleOptions = new Set(polarityOptions.values());
  const approximated = (block: Block) => {
    const before = tokens[terms[block.answerStart]!.index - 1];
    return concepts !== null && isWord(before) && concepts.approximators.has(before.text);
  };
  for (const block of validBlocks(tokens, terms, prepared, particleOptions, lexicon)) if (!approximated(block)) refer(block.option, 'words');

  const mentions = readNumbers(tokens, lexicon);
  const optionIntervals = prepared.map((option) => numericInterval(option, lexicon));
  const numericOptions = optionIntervals.some((interval) => interval !== null);
  const positions = positionReferences(tokens, terms, mentions, numericOptions, options.length, lexicon);
  if (positions.some((position) => position < 1 || position > options.length)) return nothing;
  for (const position of positions) refer(position - 1, 'ordinal');

  if (numericOptions) {
    const numbers = numericReferences(tokens, terms, mentions, prepared, optionIntervals, lexicon);
    if (numbers === null) return nothing;
    for (const option of numbers) refer(option, 'number');
  }

  if (referenced.size > 1) return nothing;
  const [named] = referenced;
  // Words name the option even where the answer's meaning also points elsewhere: confirming those
  // instead made a correct, labelled-sure answer of the confirmation set unsure.
  if (named) return { value: prepared[named[0]]!.text, match: named[1] };
  const meaning = concepts ? byMeaning(tokens, prepared, lexicon, concepts) : null;
  if (!meaning || meaning.conflict) return nothing;
  if (meaning.none && meaning.options.size === 0) {
    const noneOptions = prepared.flatMap((option, index) => (isNoneOfThese(option.tokens, concepts!) ? [index] : []));
    if (noneOptions.length === 1) return { value: prepared[noneOptions[0]!]!.text, match: 'synonym' };
    return noneOptions.length === 0 ? { value: null, match: 'none' } : nothing;
  }
  if (meaning.options.size !== 1 || meaning.none) return nothing;
  const [option, evidence] = [...meaning.options][0]!;
  return { value: prepared[option]!.text, match: evidence };
}

/**
 * The options the answer's concepts point to (an option evoking several of them counts once, by
 * its strongest evidence), and whether the answer rejects every option.
 */
function byMeaning(
  tokens: readonly Token[],
  options: readonly PreparedOption[],
  lexicon: CompiledLexicon,
  concepts: CompiledConcepts,
): { options: Map<number, ConceptEvidence>; none: boolean; conflict: boolean } {
  const excluded = (all: readonly Token[], start: number) => isExcluded(all, start, lexicon);
  const noneAt = noneOfTheseAt(tokens, lexicon, concepts);
  const optionStems = new Set(
    options.flatMap((option) => option.terms.filter((term) => !lexicon.stopwords.has(term.text)).map((term) => lexicon.stem(term.text))),
  );
  const evoked = evokedConcepts(tokens, lexicon, concepts, excluded, 'answer', optionStems);
  const pointed = new Map<number, ConceptEvidence>();
  // Options the answer shares a word with, though not enough to name them ("a google ad" and "Google search").
  const answerStems = new Set(tokens.filter(isWord).map((token) => lexicon.stem(token.text)));
  const touched = new Set(
    options.flatMap((option, index) =>
      option.terms.some((term) => !lexicon.functionWords.has(term.text) && answerStems.has(lexicon.stem(term.text))) ? [index] : [],
    ),
  );
  options.forEach((option, index) => {
    // A none-of-these option is named only by none-of-these ("Neither", "None of the above").
    if (isNoneOfThese(option.tokens, concepts)) return;
    const own = evokedConcepts(option.tokens, lexicon, concepts, excluded, 'option');
    for (const [concept, evidence] of evoked) {
      if (!own.has(concept)) continue;
      if (pointed.get(index) !== 'synonym') pointed.set(index, evidence);
    }
  });
  // Meaning that points away from an option whose words were said is no answer (when no word names one).
  const conflict = touched.size > 0 && [...pointed.keys()].some((index) => !touched.has(index));
  return { options: pointed, none: noneAt >= 0, conflict };
}

function toTerms(tokens: readonly Token[], lexicon: CompiledLexicon): Term[] {
  const terms: Term[] = [];
  let gap = false;
  tokens.forEach((token, index) => {
    if (token.kind === 'boundary') {
      gap = true;
      return;
    }
    if (token.kind === 'symbol') return;
    const key =
      token.kind === 'number'
        ? String(token.value)
        : lexicon.units.has(token.text) && !lexicon.pronounNumbers.has(token.text)
          ? String(lexicon.units.get(token.text))
          : lexicon.tens.has(token.text)
            ? String(lexicon.tens.get(token.text))
            : lexicon.stem(token.text);
    terms.push({ text: token.text, key, index, gapBefore: gap && terms.length > 0 });
    gap = false;
  });
  return terms;
}

/** Options that are answer particles, by polarity; a polarity two options share maps to neither. */
function polarityClasses(options: readonly PreparedOption[], lexicon: CompiledLexicon): Map<string, number> {
  const byPolarity = new Map<string, number[]>();
  options.forEach((option, index) => {
    const { polarity, coversAll } = readPolarity(option.tokens, lexicon);
    if (coversAll && (polarity === 'yes' || polarity === 'no' || polarity === 'unsure')) {
      byPolarity.set(polarity, [...(byPolarity.get(polarity) ?? []), index]);
    }
  });
  return new Map([...byPolarity].flatMap(([polarity, indexes]) => (indexes.length === 1 ? [[polarity, indexes[0]!] as const] : [])));
}

function sameTerm(answer: Term, option: Term, lexicon: CompiledLexicon): boolean {
  // A grammatical word meets only itself: "even" is not a stem of "evening".
  if (lexicon.stopwords.has(answer.text) || lexicon.stopwords.has(option.text)) return answer.text === option.text;
  if (answer.key === option.key) return true;
  // "mac" for "macOS": a short form of a longer word, never of a function word.
  return (
    answer.text.length >= 3 &&
    option.text.length - answer.text.length <= 2 &&
    option.text.startsWith(answer.text) &&
    !lexicon.functionWords.has(answer.text) &&
    !/\d/.test(answer.text)
  );
}

function sameCompound(parts: string, whole: string, lexicon: CompiledLexicon): boolean {
  return parts === whole || lexicon.stem(parts) === lexicon.stem(whole);
}

/** Extends a match from answer term `answerStart` and option term `optionStart` as far as it goes. */
function extend(answer: readonly Term[], option: readonly Term[], answerStart: number, optionStart: number, lexicon: CompiledLexicon) {
  let a = answerStart;
  let o = optionStart;
  for (;;) {
    if (a > answerStart && answer[a]?.gapBefore) break;
    const here = answer[a];
    const there = option[o];
    if (!here || !there) break;
    const nextAnswer = answer[a + 1];
    const nextOption = option[o + 1];
    if (sameTerm(here, there, lexicon)) {
      a += 1;
      o += 1;
    } else if (nextAnswer && !nextAnswer.gapBefore && sameCompound(here.text + nextAnswer.text, there.text, lexicon)) {
      a += 2; // "e mail" for "email"
      o += 1;
    } else if (nextOption && sameCompound(here.text, there.text + nextOption.text, lexicon)) {
      a += 1; // "nonprofit" for "non-profit"
      o += 2;
    } else {
      break;
    }
  }
  return a > answerStart ? { answerEnd: a, optionEnd: o } : null;
}

function findBlocks(answer: readonly Term[], option: PreparedOption, optionIndex: number, lexicon: CompiledLexicon): Block[] {
  const blocks: Block[] = [];
  let a = 0;
  while (a < answer.length) {
    let best: Block | null = null;
    for (let o = 0; o < option.terms.length; o += 1) {
      const match = extend(answer, option.terms, a, o, lexicon);
      if (match && (!best || match.answerEnd > best.answerEnd)) {
        best = { option: optionIndex, answerStart: a, answerEnd: match.answerEnd, optionStart: o, optionEnd: match.optionEnd };
      }
    }
    if (best) {
      blocks.push(best);
      a = best.answerEnd;
    } else {
      a += 1;
    }
  }
  return blocks;
}

/**
 * Blocks that name their option. A whole option always does. A part does only if it carries
 * meaning (not just "the" or "in"), belongs to no other option, leaves out no number and no
 * word that reverses or bounds the option ("once a month" is not "Less than once a month"),
 * and has no other word where the left-out one would stand ("big business" is not "Small
 * business"). A block said with a negation or an exclusion ("not email", "anything but phone"),
 * or right after "than"/"less"/"over", is dropped.
 */
function validBlocks(
  tokens: readonly Token[],
  answer: readonly Term[],
  options: readonly PreparedOption[],
  skip: ReadonlySet<number>,
  lexicon: CompiledLexicon,
): Block[] {
  const candidates = options.flatMap((option, index) => (skip.has(index) ? [] : findBlocks(answer, option, index, lexicon)));
  const valid = candidates.filter((block) => {
    const option = options[block.option]!;
    const full = block.optionStart === 0 && block.optionEnd === option.terms.length;
    const inAnswer = answer.slice(block.answerStart, block.answerEnd);
    if (!full) {
      const meaningful = inAnswer.some(
        (term) =>
          !lexicon.negators.has(term.text) &&
          (!lexicon.stopwords.has(term.text) || lexicon.intensifiers.has(term.text) || lexicon.meaningShifters.has(term.text)),
      );
      if (!meaningful) return false;
      const leftOut = [...option.terms.slice(0, block.optionStart), ...option.terms.slice(block.optionEnd)];
      if (leftOut.some((term) => lexicon.meaningShifters.has(term.text) || /^\d/.test(term.key))) return false;
      const slotTaken = (token: Token | undefined) => isWord(token) && !lexicon.functionWords.has(token.text);
      if (block.optionStart > 0 && slotTaken(tokens[inAnswer[0]!.index - 1])) return false;
      if (block.optionEnd < option.terms.length && slotTaken(tokens[inAnswer.at(-1)!.index + 1])) return false;
      const keys = inAnswer.map((term) => term.key);
      const shared = options.some((other, index) => index !== block.option && keys.every((key) => other.keys.has(key)));
      if (shared) return false;
    }
    const first = inAnswer[0]!.index;
    const before = tokens[first - 1];
    if (isNegated(tokens, first, lexicon) || isExcluded(tokens, first, lexicon)) return false;
    if (isWord(before) && lexicon.meaningShifters.has(before.text)) return false;
    return true;
  });
  // "phone call" names "Phone call", not also an option "Phone" inside it.
  return valid.filter(
    (block) =>
      !valid.some(
        (other) =>
          other !== block &&
          other.option !== block.option &&
          other.answerStart <= block.answerStart &&
          other.answerEnd >= block.answerEnd &&
          other.answerEnd - other.answerStart > block.answerEnd - block.answerStart,
      ),
  );
}

/** Whether an exclusion ends right before `start`, across the words a negation reaches over ("instead of the phone"). */
function isExcluded(tokens: readonly Token[], start: number, lexicon: CompiledLexicon): boolean {
  let end = start;
  while (isWord(tokens[end - 1]) && lexicon.negationTransparent.has(tokens[end - 1]!.text)) {
    if (phraseEndingAt(tokens, end, lexicon.exclusions) > 0) return true;
    end -= 1;
  }
  return phraseEndingAt(tokens, end, lexicon.exclusions) > 0;
}

/**
 * The interval an option stands for, when it is one number expression ("18-24", "Under 18").
 * Counting adverbs alone ("Less than once a month") do not make an option numeric: the option
 * set stays one whose positions can be said as bare numbers.
 */
function numericInterval(option: PreparedOption, lexicon: CompiledLexicon): Interval | null {
  const mentions = readNumbers(option.tokens, lexicon).filter((mention) => !mention.pronounLike);
  if (!mentions.some((mention) => !mention.count)) return null;
  const intervals = readIntervals(option.tokens, mentions, lexicon);
  return intervals.length === 1 ? intervals[0]! : null;
}

/** Option positions named in the answer (1-based); positions out of range are kept so the caller can refuse them. */
function positionReferences(
  tokens: readonly Token[],
  terms: readonly Term[],
  mentions: readonly NumberMention[],
  numericOptions: boolean,
  optionCount: number,
  lexicon: CompiledLexicon,
): number[] {
  const positions: number[] = [];
  const afterReferenceWord = (index: number) => isWord(tokens[index - 1]) && lexicon.referenceWords.has(tokens[index - 1]!.text);
  for (const mention of mentions) {
    if (mention.count || isNegated(tokens, mention.start, lexicon)) continue;
    if (afterReferenceWord(mention.start)) {
      positions.push(mention.fractional ? -1 : mention.value);
    } else if (!numericOptions && numberRole(tokens, mention, lexicon) === 'value') {
      positions.push(mention.fractional ? -1 : mention.value);
    }
  }
  tokens.forEach((token, index) => {
    const ordinal = token.kind === 'ordinal' ? token.value : isWord(token) ? lexicon.ordinals.get(token.text) : undefined;
    const last = isWord(token) && lexicon.lastWords.has(token.text);
    if (ordinal === undefined && !last) return;
    // "the second (one)", but not "first I tried email" or "chat first" (first = mainly).
    const previous = tokens[index - 1];
    const next = tokens[index + 1];
    if (!(isEdge(previous) || lexicon.functionWords.has(previous!.text))) return;
    if (!(isEdge(next) || (isWord(next) && lexicon.ordinalNouns.has(next.text)))) return;
    if (isNegated(tokens, index, lexicon)) return;
    positions.push(last ? optionCount : ordinal!);
  });
  terms.forEach((term, index) => {
    if (!/^[a-z]$/.test(term.text)) return;
    if (afterReferenceWord(term.index) || (terms.length === 1 && index === 0)) positions.push(term.text.charCodeAt(0) - 96);
  });
  return positions;
}

/**
 * Options named by the number said when the options are numbers or ranges. A bare small number
 * ("2") could be a position or a value, so it makes the answer null.
 */
function numericReferences(
  tokens: readonly Token[],
  terms: readonly Term[],
  mentions: readonly NumberMention[],
  options: readonly PreparedOption[],
  intervals: readonly (Interval | null)[],
  lexicon: CompiledLexicon,
): Set<number> | null {
  const optionWords = new Set(options.flatMap((option) => option.terms.map((term) => term.text)));
  const usable = mentions.filter((mention) => !mention.pronounLike && !isNegated(tokens, mention.start, lexicon));
  const roles = usable.map((mention) => numberRole(tokens, mention, lexicon, { allowedFollowers: optionWords, percentIsUnit: true }));
  // Numbers counting something the options do not name ("about 30 people" for "11-50 employees")
  // are weaker evidence: used only when no number stands alone or with the options' own words.
  const plain = usable.filter((_, index) => roles[index] === 'value');
  const said = plain.length > 0 ? plain : usable.filter((_, index) => roles[index] === 'quantity');
  const only = said[0];
  if (said.length === 1 && only && terms.length === 1 && !only.count && only.value >= 1 && only.value <= options.length) {
    return null;
  }
  const referenced = new Set<number>();
  for (const interval of readIntervals(tokens, said, lexicon)) {
    intervals.forEach((optionInterval, index) => {
      if (optionInterval && intervalWithin(interval, optionInterval)) referenced.add(index);
    });
  }
  return referenced;
}
