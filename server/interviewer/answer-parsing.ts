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
import { tokenize } from './answer-parsing/text.js';

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
  const lexicon = lexiconFor(language);
  let value: number | boolean | string | null = null;
  if (question.type === 'rating') {
    value = parseRating(question.scale ?? DEFAULT_RATING_SCALE, text, lexicon);
  } else if (question.type === 'yes_no') {
    const { polarity } = readPolarity(tokenize(text, lexicon.source.apostrophes), lexicon);
    value = polarity === 'yes' ? true : polarity === 'no' ? false : null;
  } else if (question.type === 'multiple_choice' && question.options && question.options.length > 0) {
    value = parseChoice(question.options, text, lexicon);
  }
  return value === null ? null : { value };
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
