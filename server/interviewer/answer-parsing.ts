import type { TQuestion } from '../../shared/schemas/scripts.js';
import { DEFAULT_RATING_SCALE } from '../../shared/schemas/scripts.js';
import { GERMAN_LEXICON } from './answer-parsing/de.js';
import { ENGLISH_LEXICON } from './answer-parsing/en.js';
import { SPANISH_LEXICON } from './answer-parsing/es.js';
import { FRENCH_LEXICON } from './answer-parsing/fr.js';
import { DUTCH_LEXICON } from './answer-parsing/nl.js';
import { compileLexicon, NEUTRAL_LEXICON, type AnswerLexicon, type CompiledLexicon } from './answer-parsing/lexicon.js';
import { compileConcepts, type CompiledConcepts } from './answer-parsing/concept-match.js';
import { APPROXIMATORS, CONCEPTS, NONE_OF_THESE } from './answer-parsing/concepts.js';
import { readChoice, type ChoiceMatch } from './answer-parsing/multiple-choice.js';
import { assessOpen, type VaguenessReason } from './answer-parsing/open-answer.js';
import { readPolarity } from './answer-parsing/polarity.js';
import { parseRating } from './answer-parsing/rating.js';
import { compilePhrase, isNegated, matchPhrase, phraseAt, scanPhrases, tokenize, type PhrasePattern, type Token } from './answer-parsing/text.js';
import { CERTAINTY_CUES, type CertaintyCues, HEDGES, RATING_HOMOPHONES } from './answer-parsing/certainty-cues.js';

/**
 * The built-in answer parser: reads rating, yes/no and multiple-choice answers out of what a
 * participant typed or said, and judges whether an open answer is vague. Pure: no database, no
 * network. It never guesses; anything it cannot read with confidence is null, and the engine
 * re-asks. Languages are lexicons (see `AnswerLexicon`); English is complete. A language without
 * one still reads digits, "4/5", option text and option numbers.
 */

/** Lexicons by primary language subtag; `en-GB` uses `en`. */
const LEXICONS: Record<string, AnswerLexicon> = { en: ENGLISH_LEXICON, nl: DUTCH_LEXICON, de: GERMAN_LEXICON, fr: FRENCH_LEXICON, es: SPANISH_LEXICON };

const compiled = new Map<string, CompiledLexicon>();

const compiledConcepts = new Map<string, CompiledConcepts | null>();

/** The concept lexicon of a language (see concepts.ts); null for a language without one. */
function conceptsFor(language: string | undefined, lexicon: CompiledLexicon): CompiledConcepts | null {
  const primary = (language ?? 'en').split('-')[0]!.toLowerCase();
  if (!compiledConcepts.has(primary)) {
    const source = CONCEPTS[primary];
    compiledConcepts.set(
      primary,
      source && primary in LEXICONS ? compileConcepts(primary, source, NONE_OF_THESE[primary] ?? [], APPROXIMATORS[primary] ?? [], lexicon) : null,
    );
  }
  return compiledConcepts.get(primary)!;
}

function lexiconFor(language: string | undefined): CompiledLexicon {
  const primary = (language ?? 'en').split('-')[0]!.toLowerCase();
  const key = primary in LEXICONS ? primary : '';
  let lexicon = compiled.get(key);
  if (!lexicon) {
    lexicon = compileLexicon(LEXICONS[key] ?? NEUTRAL_LEXICON);
    compiled.set(key, lexicon);
  }
  return lexicon;
}

/** The structured value of an answer: a rating, a yes/no, or an option exactly as the script writes it. */
export interface ParsedAnswer {
  value: number | boolean | string;
}

/**
 * Parses an answer to a `rating`, `yes_no` or `multiple_choice` question; null for `open`
 * questions and whenever the answer cannot be read with confidence.
 *
 * - rating: digits and number words ("4", "four", "4/5", "4 out of 5", "I'd say a four") within
 *   the question's scale (default 1–5). Null for several different numbers ("3 or 4", "between 3
 *   and 4"), for fractions ("three and a half", "3.5": the scale has whole points, and rounding
 *   would pick for the participant), out-of-scale numbers, and "X out of Y" with Y not the scale's
 *   maximum. Numbers that count or name things ("2 kids", "version 2"), negated ones ("not a 5,
 *   more like a 2"), bounds ("at least a 4") and numbers corrected later ("a 3, no actually a 4")
 *   are not ratings. Without a number, a scale label said in words gives its end of the scale.
 * - yes_no: particles and set answers with negation ("yeah", "of course", "not really", "absolutely
 *   not", "I don't think so"), then short clauses ("I have", "I didn't"). Uncertainty ("not sure",
 *   "maybe", "it depends") and both polarities ("yes and no") are null; hedges alone ("kind of",
 *   "probably", "sometimes") are null, with a particle they keep it ("yeah kind of" is true).
 * - multiple_choice: see `parseChoice`: option text or an unambiguous part of it, its number,
 *   ordinal or letter, a number within a numeric option, or polarity for Yes/No/Not sure options.
 */
export function parseStructuredAnswer(question: Pick<TQuestion, 'type' | 'options' | 'scale'>, text: string, language?: string): ParsedAnswer | null {
  const lexicon = lexiconFor(language);
  const value = readValue(question, text, lexicon, conceptsFor(language, lexicon));
  return value === null ? null : { value };
}

type StructuredQuestion = Pick<TQuestion, 'type' | 'options' | 'scale'>;

/**
 * How sure a value is by the way it was read, before hedges and the recogniser are counted
 * (`assessStructuredAnswer`). A choice named by its own words is surer than one named by a
 * synonym, a synonym than a paraphrase, a paraphrase than a position (positions are misheard
 * and miscounted); a rating in digits is surer than one in words or a scale label.
 */
export const MATCH_CONFIDENCE: Record<ChoiceMatch | 'digits' | 'spoken' | 'homophone', number> = {
  exact: 1,
  digits: 1,
  words: 0.9,
  spoken: 0.9,
  number: 0.9,
  polarity: 0.9,
  synonym: 0.8,
  paraphrase: 0.7,
  ordinal: 0.65,
  homophone: 0.7,
  none: 0.8,
};

/**
 * The one threshold of the confirmation rule: a structured value whose confidence is below it is
 * read back in one short `confirm` turn instead of being taken. Every uncertainty reason
 * (`UNCERTAINTY_FACTORS`) brings any value below it; so does a paraphrase or position heard by a
 * recogniser that was not sure of the words.
 */
export const CONFIRMATION_THRESHOLD = 0.6;

/** What each uncertainty reason multiplies a value's confidence by; each one alone brings any value below the threshold. */
const UNCERTAINTY_FACTORS: Record<Exclude<UncertaintyReason, 'low_confidence' | 'weak_match'>, number> = {
  hedge: 0.5,
  question: 0.55,
  alternatives: 0.45,
  self_correction: 0.5,
  none_of_these: 1,
};

/** A value read from text, with how it was matched. */
interface Reading {
  value: ParsedAnswer['value'] | null;
  /** Confidence of the match kind (`MATCH_CONFIDENCE`). */
  strength: number;
  /** The multiple-choice answer rejects every option ("none of those"). */
  none?: true;
}

function readValue(
  question: StructuredQuestion,
  text: string,
  lexicon: CompiledLexicon,
  concepts: CompiledConcepts | null,
  options: { setUncertaintyAside?: boolean } = {},
): ParsedAnswer['value'] | null {
  return readAnswer(question, text, lexicon, concepts, options)?.value ?? null;
}

function readAnswer(
  question: StructuredQuestion,
  text: string,
  lexicon: CompiledLexicon,
  concepts: CompiledConcepts | null,
  options: { setUncertaintyAside?: boolean } = {},
): Reading | null {
  if (question.type === 'rating') {
    const value = parseRating(question.scale ?? DEFAULT_RATING_SCALE, text, lexicon);
    if (value === null) return null;
    return {
      value,
      strength: tokenize(text, lexicon.source.apostrophes).some((token) => token.kind === 'number' && token.value === value)
        ? MATCH_CONFIDENCE.digits
        : MATCH_CONFIDENCE.spoken,
    };
  }
  if (question.type === 'yes_no') {
    const { polarity } = readPolarity(tokenize(text, lexicon.source.apostrophes), lexicon, options);
    return polarity === 'yes' || polarity === 'no' ? { value: polarity === 'yes', strength: MATCH_CONFIDENCE.polarity } : null;
  }
  if (question.type === 'multiple_choice' && question.options && question.options.length > 0) {
    const { value, match } = readChoice(question.options, text, lexicon, concepts);
    if (match === 'none') return { value: null, strength: MATCH_CONFIDENCE.none, none: true };
    return value === null || match === null ? null : { value, strength: MATCH_CONFIDENCE[match] };
  }
  return null;
}

/**
 * How sure an answer is: `sure` (take the value), `unsure` (a value was understood but not surely:
 * confirm it in one short turn before taking it) or `unknown` (no value: ask again).
 */
export type AnswerCertainty = 'sure' | 'unsure' | 'unknown';

/** What made an answer unsure. */
export type UncertaintyReason = 'hedge' | 'question' | 'alternatives' | 'self_correction' | 'low_confidence' | 'weak_match' | 'none_of_these';

export interface AssessedAnswer {
  /** The value understood; null when `certainty` is `unknown`, and for none of the options (`noneOfThese`). */
  value: ParsedAnswer['value'] | null;
  certainty: AnswerCertainty;
  reasons: UncertaintyReason[];
  /**
   * How sure the value is, 0–1: the match kind (`MATCH_CONFIDENCE`) times each uncertainty
   * reason's factor and the recogniser's confidence; `certainty` is `sure` exactly when it is at
   * or above `CONFIRMATION_THRESHOLD` and no reason applies. Null when nothing was understood.
   */
  confidence: number | null;
  /** The answer rejects every option ("none of those"): no value, confirmed before it is taken. */
  noneOfThese?: true;
}

/**
 * Below this recogniser confidence (0–1, as `SpeechRecognizer.transcribe` reports it) a value that
 * reads as sure is confirmed anyway: the words may not be what was said.
 */
export const LOW_RECOGNITION_CONFIDENCE = 0.5;

interface CompiledCues {
  hedges: PhrasePattern[];
  preference: PhrasePattern[];
  or: PhrasePattern[];
  corrections: PhrasePattern[];
  noWords: PhrasePattern[];
  contradictingYes: PhrasePattern[];
  partialYes: PhrasePattern[];
  partialNo: PhrasePattern[];
  middle: PhrasePattern[];
  homophones: Map<string, string>;
}

const NO_CUES: CertaintyCues = { preference: [], or: [], corrections: [], noWords: [], partialYes: [], partialNo: [], middle: [] };
const compiledCues = new Map<string, CompiledCues>();

function cuesFor(language: string | undefined, lexicon: CompiledLexicon): CompiledCues {
  const primary = (language ?? 'en').split('-')[0]!.toLowerCase();
  let cues = compiledCues.get(primary);
  if (!cues) {
    const phrases = (list: readonly string[]) => list.map((phrase) => compilePhrase(phrase, lexicon.source.apostrophes));
    const source = CERTAINTY_CUES[primary] ?? NO_CUES;
    cues = {
      hedges: phrases(HEDGES[primary] ?? []),
      preference: phrases(source.preference),
      or: phrases(source.or),
      corrections: [...lexicon.correctionPhrases, ...phrases(source.corrections)],
      noWords: phrases(source.noWords),
      contradictingYes: phrases(source.contradictingYes ?? []),
      partialYes: phrases(source.partialYes),
      partialNo: phrases(source.partialNo),
      middle: phrases(source.middle),
      homophones: new Map(Object.entries(RATING_HOMOPHONES[primary] ?? {})),
    };
    compiledCues.set(primary, cues);
  }
  return cues;
}

type Value = ParsedAnswer['value'];

/**
 * The certainty reading of a structured answer, the rule behind the interviewer's confirmation
 * turn. Made here, by rule, for both interviewers: an LLM never decides whether a value is taken.
 * In order:
 * 1. Self-correction: a value replaced after a correction ("two no three", "the first, I mean the
 *    second", "non enfin si") is the later value, unsure.
 * 2. Alternatives: values joined by "or" ("three or four"): the one after a preference or hedge
 *    ("..., probably four", "eerder vier") is unsure; with none chosen, unknown.
 * 3. The strict reading (`parseStructuredAnswer`): its value is sure unless the answer hedges
 *    ("maybe", "I think": `HEDGES`), ends as a question ("a four?"), or the recogniser's
 *    confidence is below `LOW_RECOGNITION_CONFIDENCE`.
 * 4. A lenient reading, always unsure: a negated "no" ("I wouldn't say no": yes), a yes/no said
 *    despite uncertainty ("not sure, probably yes"), a lukewarm answer ("kind of", "bof"), the
 *    middle of a rating scale, the value after the last hedge ("je sais pas, trois"), the last
 *    clause with a value. A rating the recogniser wrote as a homophone ("a for") reads as the
 *    number, as sure as the rest of the answer allows.
 * Anything else is unknown.
 */
export function assessStructuredAnswer(
  question: StructuredQuestion,
  text: string,
  language?: string,
  recognition: { confidence?: number | null | undefined } = {},
): AssessedAnswer {
  const unknown: AssessedAnswer = { value: null, certainty: 'unknown', reasons: [], confidence: null };
  if (question.type === 'open') return unknown;
  const lexicon = lexiconFor(language);
  const concepts = conceptsFor(language, lexicon);
  const cues = cuesFor(language, lexicon);
  const tokens = tokenize(text, lexicon.source.apostrophes);
  const read = (part: readonly Token[]) => (part.length === 0 ? null : readValue(question, textOf(part), lexicon, concepts));
  const readingOf = (part: readonly Token[]) => (part.length === 0 ? null : readAnswer(question, textOf(part), lexicon, concepts));
  const reasons: UncertaintyReason[] = [];
  if (scanPhrases(tokens, [{ tag: 'hedge', patterns: cues.hedges }]).length > 0) reasons.push('hedge');
  if (/[?¿]/.test(text)) reasons.push('question');
  const heard = recognition.confidence;
  if (heard !== null && heard !== undefined && heard < LOW_RECOGNITION_CONFIDENCE) reasons.push('low_confidence');

  // The confidence of a value read with `strength` under `all` reasons; below the threshold with none, the match itself is weak.
  const judged = (value: Value | null, strength: number, all: readonly UncertaintyReason[]): AssessedAnswer => {
    let confidence = strength;
    for (const reason of all) confidence *= reason === 'low_confidence' || reason === 'weak_match' ? 1 : UNCERTAINTY_FACTORS[reason];
    confidence *= recognitionFactor(heard);
    const unique = [...new Set(all)];
    if (unique.length === 0 && confidence < CONFIRMATION_THRESHOLD) unique.push('weak_match');
    return { value, certainty: unique.length > 0 ? 'unsure' : 'sure', reasons: unique, confidence: round(confidence) };
  };
  const strengthOf = (value: Value) => {
    const reading = readAnswer(question, text, lexicon, concepts);
    return reading && reading.value === value ? reading.strength : MATCH_CONFIDENCE.words;
  };
  const unsure = (value: Value, reason: UncertaintyReason, strength = strengthOf(value)): AssessedAnswer => judged(value, strength, [...reasons, reason]);

  // After a correction, "si" / "doch" alone is the yes that contradicts the no before it.
  const contradicts = (part: readonly Token[]) => part.length > 0 && cues.contradictingYes.some((pattern) => matchPhrase(part, 0, pattern) === part.length);
  const corrected = selfCorrection(tokens, cues, question.type === 'yes_no' ? (part) => (contradicts(part) ? true : read(part)) : read);
  if (corrected !== null) return unsure(corrected.value, 'self_correction', readingOf(corrected.after)?.strength ?? MATCH_CONFIDENCE.polarity);

  const alternatives = alternativesOf(tokens, cues, read);
  if (alternatives === 'unchosen') return unknown;
  if (alternatives !== null) return unsure(alternatives, 'alternatives');

  // Before the strict reading, which takes "I wouldn't say no" for a clausal no.
  if (question.type === 'yes_no' && negatedNo(tokens, cues, lexicon)) return unsure(true, 'hedge', MATCH_CONFIDENCE.polarity);

  const strict = readAnswer(question, text, lexicon, concepts);
  if (strict?.none) {
    // No option: always read back ("So none of these, right?"), whatever the confidence.
    const assessed = judged(null, strict.strength, reasons);
    return { ...assessed, certainty: 'unsure', reasons: [...assessed.reasons.filter((reason) => reason !== 'weak_match'), 'none_of_these'], noneOfThese: true };
  }
  if (strict !== null && strict.value !== null) return judged(strict.value, strict.strength, reasons);

  if (question.type === 'yes_no') {
    const leaning = readValue(question, text, lexicon, concepts, { setUncertaintyAside: true });
    if (leaning !== null) return unsure(leaning, 'hedge', MATCH_CONFIDENCE.polarity);
    const lukewarm = scanPhrases(tokens, [
      { tag: true, patterns: cues.partialYes },
      { tag: false, patterns: cues.partialNo },
    ]);
    const kinds = new Set(lukewarm.map((hit) => hit.tag));
    if (kinds.size === 1) return unsure([...kinds][0]!, 'hedge', MATCH_CONFIDENCE.polarity);
  }
  if (question.type === 'rating') {
    const withNumbers = withHomophones(tokens, cues);
    if (withNumbers) {
      const value = readValue(question, withNumbers, lexicon, concepts);
      if (value !== null) return judged(value, MATCH_CONFIDENCE.homophone, reasons);
    }
    const scale = question.scale ?? DEFAULT_RATING_SCALE;
    const middle = (scale.min + scale.max) / 2;
    if (Number.isInteger(middle) && scanPhrases(tokens, [{ tag: 'middle', patterns: cues.middle }]).length > 0)
      return unsure(middle, 'hedge', MATCH_CONFIDENCE.spoken);
  }
  const marked = scanPhrases(tokens, [{ tag: 'marker', patterns: [...cues.hedges, ...cues.preference] }]);
  for (const marker of marked.reverse()) {
    const reading = readingOf(tokens.slice(marker.end));
    if (reading !== null && reading.value !== null) return unsure(reading.value, 'hedge', reading.strength);
  }
  const clauses = clausesOf(tokens);
  for (let index = clauses.length - 1; index >= 1; index -= 1) {
    const reading = readingOf(clauses[index]!);
    if (reading !== null && reading.value !== null) return unsure(reading.value, 'alternatives', reading.strength);
  }
  return unknown;
}

/**
 * What the recogniser's confidence does to a value's: nothing for typed text; below
 * `LOW_RECOGNITION_CONFIDENCE` the value is unsure anyway and its confidence is scaled by the
 * recogniser's; above it, a small discount, enough to confirm a paraphrase that was not heard well.
 */
function recognitionFactor(heard: number | null | undefined): number {
  if (heard === null || heard === undefined) return 1;
  const clamped = Math.min(1, Math.max(0, heard));
  return clamped < LOW_RECOGNITION_CONFIDENCE ? clamped : 1 - (1 - clamped) * 0.4;
}

function round(confidence: number): number {
  return Math.round(confidence * 100) / 100;
}

/**
 * A reply to a confirmation read without the yes or no it starts with ("no three" → "three"): a
 * recogniser writes "no, a three" without the comma, and "no" then reads as negating the number.
 * Null when the reply does not start with one, or holds nothing after it.
 */
export function withoutLeadingAnswer(text: string, language?: string): string | null {
  const lexicon = lexiconFor(language);
  const cues = cuesFor(language, lexicon);
  const tokens = tokenize(text, lexicon.source.apostrophes);
  const length = phraseAt(tokens, 0, [...cues.noWords, ...lexicon.yes, ...lexicon.no]);
  if (length === 0) return null;
  const rest = tokens
    .slice(length)
    .filter((token, index, all) => token.kind !== 'boundary' || all.slice(0, index).some((before) => before.kind !== 'boundary'));
  return rest.length > 0 ? textOf(rest) : null;
}

/** The value after the latest correction that replaces a different value said before it, and the words it was read from; null for none. */
function selfCorrection(tokens: readonly Token[], cues: CompiledCues, read: (part: readonly Token[]) => Value | null): { value: Value; after: Token[] } | null {
  const markers = scanPhrases(tokens, [{ tag: 'correction', patterns: cues.corrections }]);
  for (const marker of [...markers].reverse()) {
    const rest = tokens.slice(marker.end);
    const after = read(rest);
    if (after === null) continue;
    const before = read(tokens.slice(0, marker.start));
    if (before !== null && before !== after) return { value: after, after: rest };
  }
  return null;
}

/**
 * Values joined by "or": null when the answer offers no alternatives; the value after the last
 * preference or hedge that follows the first "or" when one is chosen; 'unchosen' otherwise.
 */
function alternativesOf(tokens: readonly Token[], cues: CompiledCues, read: (part: readonly Token[]) => Value | null): Value | 'unchosen' | null {
  const ors = scanPhrases(tokens, [{ tag: 'or', patterns: cues.or }]);
  if (ors.length === 0) return null;
  const bounds = [0, ...ors.flatMap((hit) => [hit.start, hit.end]), tokens.length];
  const values = new Set<Value>();
  for (let index = 0; index < bounds.length; index += 2) {
    const value = read(tokens.slice(bounds[index], bounds[index + 1]));
    if (value !== null) values.add(value);
  }
  // The first part alone: "three or four, probably four" has 3 and 4 whatever the rest holds.
  const first = read(tokens.slice(0, ors[0]!.start));
  if (first !== null) values.add(first);
  if (values.size < 2) return null;
  const markers = scanPhrases(tokens.slice(ors[0]!.end), [{ tag: 'marker', patterns: [...cues.preference, ...cues.hedges] }]);
  for (const marker of markers.reverse()) {
    const value = read(tokens.slice(ors[0]!.end + marker.end));
    if (value !== null) return value;
  }
  return 'unchosen';
}

/** "I wouldn't say no", "ik zou niet nee zeggen": a "no" under a negation. */
function negatedNo(tokens: readonly Token[], cues: CompiledCues, lexicon: CompiledLexicon): boolean {
  return scanPhrases(tokens, [{ tag: 'no', patterns: cues.noWords }]).some((hit) => isNegated(tokens, hit.start, lexicon));
}

/** The answer with recogniser homophones of numbers replaced ("a for" → "a four"), or null when it has none. */
function withHomophones(tokens: readonly Token[], cues: CompiledCues): string | null {
  if (!tokens.some((token) => cues.homophones.has(token.text))) return null;
  return tokens.map((token) => cues.homophones.get(token.text) ?? token.text).join(' ');
}

/** Clauses: runs of tokens between punctuation. */
function clausesOf(tokens: readonly Token[]): Token[][] {
  const clauses: Token[][] = [[]];
  for (const token of tokens) {
    if (token.kind === 'boundary') clauses.push([]);
    else clauses.at(-1)!.push(token);
  }
  return clauses.filter((clause) => clause.length > 0);
}

function textOf(tokens: readonly Token[]): string {
  return tokens.map((token) => token.text).join(' ');
}

/** Whether an open answer deserves a follow-up, and why. */
export interface OpenAnswerAssessment {
  vague: boolean;
  reason: VaguenessReason | null;
}

/**
 * Judges an open answer for the built-in interviewer's follow-up: empty, too short (fewer than
 * two content words once fillers, function words, bare verdicts and generic words are set
 * aside), or non-committal ("I don't know", "it's fine", "same as before") answers are vague;
 * an answer with two or more content words is not, however short ("Login fails on Safari").
 */
export function assessOpenAnswer(text: string, language?: string): OpenAnswerAssessment {
  const reason = assessOpen(text, lexiconFor(language));
  return { vague: reason !== null, reason };
}
