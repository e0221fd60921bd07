import type { SpeechHints } from './speech-recognizer.js';

/**
 * JSGF grammars for structured questions. A grammar of the few answers a question allows is
 * what makes an offline recogniser usable: on synthetic speech the free language model turned
 * "four out of five" into "pull out and ah you", the grammar into "four out of five". A
 * grammar also yields one of its sentences for anything else ("it depends on the day"); the
 * recogniser checks that separately (see GRAMMAR_MIN_SCORE there).
 *
 * Every word must be in the recogniser's pronunciation dictionary (pocketsphinx refuses the
 * whole grammar otherwise), so words are passed through `known`; digits are not words there,
 * and numbers are spoken anyway, so the grammar holds them spelled out.
 */
export function buildJsgfGrammar(hints: SpeechHints, known: (word: string) => boolean): JsgfGrammar | null {
  const answer = answerGrammar(hints, known);
  if (!answer) return null;
  const text = ['#JSGF V1.0;', 'grammar answer;', `public <answer> = ${answer.publicRule};`, ...answer.rules, ''].join('\n');
  const words = new Set(
    [answer.publicRule, ...answer.rules]
      .join(' ')
      .replace(/<[^>]*>/g, ' ')
      .match(/[a-z][a-z']*/g) ?? [],
  );
  return { text, words: [...words] };
}

export interface JsgfGrammar {
  text: string;
  /** Every word it uses, for a dictionary of just these. */
  words: string[];
}

interface AnswerGrammar {
  publicRule: string;
  rules: string[];
}

function answerGrammar(hints: SpeechHints, known: (word: string) => boolean): AnswerGrammar | null {
  if (hints.confirming && hints.questionType !== 'yes_no' && hints.questionType !== 'open') {
    const value = answerGrammar({ ...hints, confirming: false }, known);
    return value ? confirmationGrammar(value, known) : yesNoGrammar(known);
  }
  switch (hints.questionType) {
    case 'rating':
      return ratingGrammar(hints.scale ?? { min: 1, max: 5 }, known);
    case 'yes_no':
      return yesNoGrammar(known);
    case 'multiple_choice':
      return multipleChoiceGrammar(hints.options ?? [], known);
    case 'open':
      return null;
  }
}

/** Hesitations the grammar absorbs; the recogniser also emits them where nobody hesitated, so they are dropped from the text. */
export const GRAMMAR_FILLERS = new Set(['um', 'uh']);

const RATING_LEADS = [
  'i would say',
  "i'd say",
  'i would give it',
  "i'd give it",
  'i give it',
  'i think',
  'i guess',
  'maybe',
  'probably',
  'about',
  'around',
  'like',
  'a',
  "it's",
  'it is',
  'definitely',
  'honestly',
  'solid',
  'um',
  'uh',
];
const RATING_TAILS = ['i think', 'i guess', 'maybe', 'probably', 'i would say', "i'd say", 'definitely', 'um', 'uh'];

const YES = [
  'yes',
  'yeah',
  'yep',
  'yup',
  'sure',
  'of course',
  'definitely',
  'absolutely',
  'correct',
  'right',
  "that's right",
  'i do',
  'i did',
  'i have',
  'i would',
  'i am',
  'it is',
  'it was',
  'okay',
];
const NO = [
  'no',
  'nope',
  'nah',
  'not really',
  'not at all',
  'never',
  "i don't",
  "i didn't",
  "i haven't",
  "i wouldn't",
  "i'm not",
  "it isn't",
  "it wasn't",
  'no way',
  'definitely not',
];
const YES_NO_LEADS = ['well', 'i think', 'i guess', 'i would say', "i'd say", 'probably', 'um', 'uh', 'oh'];

const CHOICE_LEADS = [
  'i would say',
  "i'd say",
  'i choose',
  'i pick',
  "i'd pick",
  "i'd go with",
  'i would go with',
  'i think',
  'probably',
  'definitely',
  'maybe',
  'mostly',
  'the',
  "it's",
  'it is',
  'um',
  'uh',
];

const ONES = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
];
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];

/** 0..100 as spoken: 42 → ["forty two"], 100 → ["one hundred", "a hundred", "hundred"]. */
export function numberAsWords(value: number): string[] {
  if (!Number.isInteger(value) || value < 0 || value > 100) return [];
  if (value === 100) return ['one hundred', 'a hundred', 'hundred'];
  if (value < 20) return [ONES[value]!];
  const tens = TENS[Math.floor(value / 10)]!;
  return [value % 10 === 0 ? tens : `${tens} ${ONES[value % 10]!}`];
}

function ratingGrammar(scale: { min: number; max: number }, known: (word: string) => boolean): AnswerGrammar | null {
  const numbers: string[] = [];
  for (let value = Math.max(0, scale.min); value <= Math.min(100, scale.max); value++) numbers.push(...numberAsWords(value));
  const numberRule = alternatives(numbers, known);
  if (!numberRule) return null;
  const maxRule = alternatives(numberAsWords(scale.max), known);
  const rules = [`<number> = ${numberRule};`];
  let answer = '<number>';
  if (maxRule && known('out') && known('of')) {
    rules.push(`<max> = ${maxRule};`);
    answer = '<number> [out of <max>]';
  }
  return {
    publicRule: `[<lead>] [<lead>] ${answer} [<tail>]`,
    rules: [...rules, optionalRule('lead', RATING_LEADS, known), optionalRule('tail', RATING_TAILS, known)],
  };
}

function yesNoGrammar(known: (word: string) => boolean): AnswerGrammar | null {
  const answers = alternatives([...YES, ...NO], known);
  if (!answers) return null;
  return { publicRule: '[<lead>] <option> [<option>] [<lead>]', rules: [`<option> = ${answers};`, optionalRule('lead', YES_NO_LEADS, known)] };
}

/** A reply to "So that's a 4, is that right?": yes or no, or the value meant, after a yes or no or alone ("no, a three"). */
function confirmationGrammar(value: AnswerGrammar, known: (word: string) => boolean): AnswerGrammar | null {
  const replies = alternatives([...YES, ...NO], known);
  if (!replies) return value;
  return { publicRule: `(<reply> [<reply>]) | ([<reply>] ${value.publicRule})`, rules: [...value.rules, `<reply> = ${replies};`] };
}

function multipleChoiceGrammar(options: string[], known: (word: string) => boolean): AnswerGrammar | null {
  const phrases = options.map((option) => optionWords(option).filter(known).join(' ')).filter((phrase) => phrase.length > 0);
  const optionRule = alternatives(phrases, known);
  if (!optionRule) return null;
  const answer = known('and') ? '<option> [and <option>]' : '<option>';
  return { publicRule: `[<lead>] [<lead>] ${answer} [<lead>]`, rules: [`<option> = ${optionRule};`, optionalRule('lead', CHOICE_LEADS, known)] };
}

/** "1-2 times a week!" → ["one", "to", "two", "times", "a", "week"]: lower case, digits spelled out, punctuation gone. */
export function optionWords(option: string): string[] {
  return option
    .toLowerCase()
    .replace(/[’‘]/g, "'")
    .replace(/(\d+)\s*[-–]\s*(\d+)/g, '$1 to $2')
    .replace(/\d+/g, (digits) => ` ${numberAsWords(Number(digits))[0] ?? ''} `)
    .split(/[^a-z']+/)
    .map((word) => word.replace(/^'+|'+$/g, ''))
    .filter((word) => word.length > 0);
}

/** `(a b) | (c)` of the phrases whose every word is known; null when none is. */
function alternatives(phrases: string[], known: (word: string) => boolean): string | null {
  const usable = [...new Set(phrases)].filter((phrase) => {
    const words = phrase.split(' ');
    return words.length > 0 && words.every((word) => SAFE_TOKEN.test(word) && known(word));
  });
  return usable.length > 0 ? usable.map((phrase) => `(${phrase})`).join(' | ') : null;
}

/** JSGF tokens we write: dictionary words only, so nothing in an option can break out of the grammar. */
const SAFE_TOKEN = /^[a-z][a-z']*$/;

/** `<NULL>` (matches nothing, always allowed) when no phrase is usable, so `[<lead>]` stays valid. */
function optionalRule(name: string, phrases: string[], known: (word: string) => boolean): string {
  return `<${name}> = ${alternatives(phrases, known) ?? '<NULL>'};`;
}
