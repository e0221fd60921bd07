import type { TQuestion } from '../../shared/schemas/scripts.js';
import { DEFAULT_RATING_SCALE } from '../../shared/schemas/scripts.js';
import { GERMAN_LEXICON } from './answer-parsing/de.js';
import { ENGLISH_LEXICON } from './answer-parsing/en.js';
import { SPANISH_LEXICON } from './answer-parsing/es.js';
import { FRENCH_LEXICON } from './answer-parsing/fr.js';
import { DUTCH_LEXICON } from './answer-parsing/nl.js';
import { compileLexicon, NEUTRAL_LEXICON, type AnswerLexicon, type CompiledLexicon } from './answer-parsing/lexicon.js';
import { parseChoice } from './answer-parsing/multiple-choice.js';
import { assessOpen, type VaguenessReason } from './answer-parsing/open-answer.js';
import { readPolarity } from './answer-parsing/polarity.js';
import { parseRating } from './answer-parsing/rating.js';
import { compilePhrase, scanPhrases, tokenize, type PhrasePattern, type Token } from './answer-parsing/text.js';
import { HEDGES } from './answer-parsing/certainty-cues.js';

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
export function parseStructuredAnswer(
  question: Pick<TQuestion, 'type' | 'options' | 'scale'>,
  text: string,
  language?: string,
): ParsedAnswer | null {
  const value = readValue(question, text, lexiconFor(language));
  return value === null ? null : { value };
}

type StructuredQuestion = Pick<TQuestion, 'type' | 'options' | 'scale'>;

function readValue(question: StructuredQuestion, text: string, lexicon: CompiledLexicon, options: { setUncertaintyAside?: boolean } = {}): ParsedAnswer['value'] | null {
  if (question.type === 'rating') return parseRating(question.scale ?? DEFAULT_RATING_SCALE, text, lexicon);
  if (question.type === 'yes_no') {
    const { polarity } = readPolarity(tokenize(text, lexicon.source.apostrophes), lexicon, options);
    return polarity === 'yes' ? true : polarity === 'no' ? false : null;
  }
  if (question.type === 'multiple_choice' && question.options && question.options.length > 0) return parseChoice(question.options, text, lexicon);
  return null;
}

/**
 * How sure an answer is: `sure` (take the value), `unsure` (a value was understood but not surely:
 * confirm it in one short turn before taking it) or `unknown` (no value: ask again).
 */
export type AnswerCertainty = 'sure' | 'unsure' | 'unknown';

/** What made an answer unsure. */
export type UncertaintyReason = 'hedge' | 'question' | 'alternatives' | 'self_correction' | 'low_confidence';

export interface AssessedAnswer {
  /** The value understood; null exactly when `certainty` is `unknown`. */
  value: ParsedAnswer['value'] | null;
  certainty: AnswerCertainty;
  reasons: UncertaintyReason[];
}

/**
 * Below this recogniser confidence (0–1, as `SpeechRecognizer.transcribe` reports it) a value that
 * reads as sure is confirmed anyway: the words may not be what was said.
 */
export const LOW_RECOGNITION_CONFIDENCE = 0.5;

const hedges = new Map<string, PhrasePattern[]>();

function hedgesFor(language: string | undefined, lexicon: CompiledLexicon): PhrasePattern[] {
  const primary = (language ?? 'en').split('-')[0]!.toLowerCase();
  let list = hedges.get(primary);
  if (!list) {
    list = (HEDGES[primary] ?? []).map((phrase) => compilePhrase(phrase, lexicon.source.apostrophes));
    hedges.set(primary, list);
  }
  return list;
}

/**
 * The certainty reading of a structured answer, the rule behind the interviewer's confirmation
 * turn. First the strict reading (`parseStructuredAnswer`); a value it finds is `sure` unless the
 * answer hedges ("maybe", "I think", "ongeveer": `HEDGES`), ends as a question ("a four?"), replaced
 * what it said first ("a 3, no actually a 4"), or the recogniser's confidence is below
 * `LOW_RECOGNITION_CONFIDENCE`. Where the strict reading finds none, a lenient one looks for what
 * the answer leans to: the last clause that holds a value after alternatives ("three or four,
 * probably four" → 4), or a yes/no said despite uncertainty ("not sure, probably yes"); that value
 * is `unsure`. Otherwise `unknown`. Made here, by rule, for both interviewers: an LLM never decides
 * whether a value is taken.
 */
export function assessStructuredAnswer(
  question: StructuredQuestion,
  text: string,
  language?: string,
  recognition: { confidence?: number | null | undefined } = {},
): AssessedAnswer {
  if (question.type === 'open') return { value: null, certainty: 'unknown', reasons: [] };
  const lexicon = lexiconFor(language);
  const tokens = tokenize(text, lexicon.source.apostrophes);
  const reasons: UncertaintyReason[] = [];
  if (scanPhrases(tokens, [{ tag: 'hedge', patterns: hedgesFor(language, lexicon) }]).length > 0) reasons.push('hedge');
  if (/[?¿]/.test(text)) reasons.push('question');
  if (selfCorrected(question, tokens, text, lexicon)) reasons.push('self_correction');
  const confidence = recognition.confidence;
  if (confidence !== null && confidence !== undefined && confidence < LOW_RECOGNITION_CONFIDENCE) reasons.push('low_confidence');

  const strict = readValue(question, text, lexicon);
  if (strict !== null) return { value: strict, certainty: reasons.length > 0 ? 'unsure' : 'sure', reasons };

  const leaning = leaningValue(question, text, tokens, lexicon);
  if (leaning === null) return { value: null, certainty: 'unknown', reasons: [] };
  return { value: leaning.value, certainty: 'unsure', reasons: [...new Set([...reasons, leaning.reason])] };
}

/** A value said, then replaced after a correction phrase ("a 3, no actually a 4", "the first, I mean the second"). */
function selfCorrected(question: StructuredQuestion, tokens: readonly Token[], text: string, lexicon: CompiledLexicon): boolean {
  if (question.type === 'yes_no') return false;
  const corrections = scanPhrases(tokens, [{ tag: 'correction', patterns: lexicon.correctionPhrases }]);
  return corrections.some((correction) => correction.start > 0 && readValue(question, textOf(tokens.slice(0, correction.start)), lexicon) !== null);
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

function leaningValue(
  question: StructuredQuestion,
  text: string,
  tokens: readonly Token[],
  lexicon: CompiledLexicon,
): { value: ParsedAnswer['value']; reason: UncertaintyReason } | null {
  if (question.type === 'yes_no') {
    const value = readValue(question, text, lexicon, { setUncertaintyAside: true });
    return value === null ? null : { value, reason: 'hedge' };
  }
  const clauses = clausesOf(tokens);
  if (clauses.length < 2) return null;
  for (let index = clauses.length - 1; index >= 1; index -= 1) {
    const value = readValue(question, textOf(clauses[index]!), lexicon);
    if (value !== null) return { value, reason: 'alternatives' };
  }
  return null;
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
