import de from './probe-checks/de.json' with { type: 'json' };
import en from './probe-checks/en.json' with { type: 'json' };
import es from './probe-checks/es.json' with { type: 'json' };
import fr from './probe-checks/fr.json' with { type: 'json' };
import nl from './probe-checks/nl.json' with { type: 'json' };

/**
 * The checks an LLM's probe passes before it is asked (issue 30): one question, no leading
 * wording, no repeat of an earlier question, within the turn's length budget. The wording lists
 * are data, one file per language in `probe-checks/` (`en`, `nl`, `de`, `fr`, `es`; any other
 * language is checked with the English list):
 *
 * - `leadingPhrases`: wording that pushes an answer ("don't you think", "n'est-ce pas"), matched
 *   as whole words anywhere in the probe, ignoring case;
 * - `leadingPatterns`: regular expressions (flags `iu`, `\b` a Unicode word boundary) for tag
 *   questions (", right?", ", toch?") and suggested answers ("was it because of X?");
 * - `questionStarts`: how a question sentence begins, for a second question written without its
 *   question mark ("Why did you stop. What happened?");
 * - `doubleQuestionPhrases`: a second question joined to the first ("… and why …?").
 */
export type ProbeRefusal = 'not_one_question' | 'leading' | 'repeats_earlier' | 'too_long';

/** Longest follow-up or transition the interviewer accepts from a model (characters). */
export const MAX_DECISION_TEXT_LENGTH = 500;

/** A probe is one short question: at most this many words (and MAX_DECISION_TEXT_LENGTH characters). */
export const MAX_PROBE_WORDS = 40;

/** Token overlap (Dice coefficient over the words' sets) at or above which a probe repeats an earlier question. */
export const REPEAT_SIMILARITY = 0.75;

interface WordingList {
  leadingPhrases: string[];
  leadingPatterns: string[];
  questionStarts: string[];
  doubleQuestionPhrases: string[];
}

interface CompiledWording {
  leading: RegExp[];
  questionStarts: string[];
  doubleQuestion: RegExp[];
}

const LETTER = '[\\p{L}\\p{N}]';
const UNICODE_WORD_BOUNDARY = `(?:(?<!${LETTER})(?=${LETTER})|(?<=${LETTER})(?!${LETTER}))`;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A phrase matched as whole words: not inside a longer word on either side. */
function wholePhrase(phrase: string): RegExp {
  return new RegExp(`(?<!${LETTER})${escapeRegExp(normalizeWording(phrase))}(?!${LETTER})`, 'iu');
}

function compile(list: WordingList): CompiledWording {
  return {
    leading: [
      ...list.leadingPhrases.map(wholePhrase),
      ...list.leadingPatterns.map((pattern) => new RegExp(pattern.replaceAll('\\b', UNICODE_WORD_BOUNDARY), 'iu')),
    ],
    questionStarts: list.questionStarts.map(normalizeWording),
    doubleQuestion: list.doubleQuestionPhrases.map(wholePhrase),
  };
}

const WORDING: Record<string, CompiledWording> = { en: compile(en), nl: compile(nl), de: compile(de), fr: compile(fr), es: compile(es) };

function wordingFor(language: string): CompiledWording {
  return WORDING[language.toLowerCase().split('-')[0]!] ?? WORDING.en!;
}

/** Lower case, one kind of apostrophe and question mark, single spaces. */
function normalizeWording(text: string): string {
  return text
    .toLowerCase()
    .replace(/[\u2018\u2019\u02bc`´]/g, "'")
    .replace(/\uff1f/g, '?')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Sentences with their closing punctuation, split where a space follows it (not inside "ada@example.com" or "2.5"). */
function sentencesOf(text: string): string[] {
  return text
    .split(/(?<=[.!?\uff1f])\s+/)
    .map((sentence) => sentence.trim())
    .filter((sentence) => /[\p{L}\p{N}]/u.test(sentence));
}

function questionMarks(text: string): number {
  return (text.match(/[?\uff1f]/g) ?? []).length;
}

/** Lower-case words without diacritics: "Qué pasó?" and "que paso" are the same words. */
export function wordsOf(text: string): string[] {
  return (
    text
      .normalize('NFD')
      .replace(/\p{M}/gu, '')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  );
}

/** Dice coefficient of the two texts' word sets: 1 for the same words, 0 for none in common. */
export function wordSimilarity(a: string, b: string): number {
  const left = new Set(wordsOf(a));
  const right = new Set(wordsOf(b));
  if (left.size === 0 || right.size === 0) return 0;
  let shared = 0;
  for (const word of left) if (right.has(word)) shared += 1;
  return (2 * shared) / (left.size + right.size);
}

export interface ProbeContext {
  language: string;
  /** Everything the AI asked before in this interview: the current question's turns and every earlier one. */
  earlierQuestions: string[];
}

/** The first check a probe fails, or null when it may be asked. */
export function refuseProbe(text: string, context: ProbeContext): ProbeRefusal | null {
  if (text.length > MAX_DECISION_TEXT_LENGTH) return 'too_long';
  const probe = normalizeWording(text);
  if (wordsOf(probe).length > MAX_PROBE_WORDS) return 'too_long';
  const wording = wordingFor(context.language);
  if (!isOneQuestion(probe, wording)) return 'not_one_question';
  if (wording.leading.some((pattern) => pattern.test(probe))) return 'leading';
  if (repeatsEarlier(probe, context.earlierQuestions)) return 'repeats_earlier';
  return null;
}

function isOneQuestion(probe: string, wording: CompiledWording): boolean {
  if (questionMarks(probe) !== 1) return false;
  const sentences = sentencesOf(probe);
  const asking = sentences.filter((sentence) => sentence.includes('?'));
  // Sentences other than the one asking: statements ("You said you gave up."), never a second question without its mark.
  const others = sentences.filter((sentence) => !sentence.includes('?'));
  if (others.some((sentence) => startsAsQuestion(sentence, wording))) return false;
  return !asking.some((sentence) => wording.doubleQuestion.some((pattern) => pattern.test(sentence)));
}

function startsAsQuestion(sentence: string, wording: CompiledWording): boolean {
  const start = sentence.replace(/^[^\p{L}\p{N}]+/u, '');
  return wording.questionStarts.some((words) => start === words || (start.startsWith(words) && !new RegExp(`^${LETTER}`, 'u').test(start.slice(words.length))));
}

/** Compared with each earlier turn whole and with each of its question sentences (a turn may start with a bridge: "Thanks. What is your role?"). */
function repeatsEarlier(probe: string, earlier: string[]): boolean {
  const asked = probe.includes('?') ? (sentencesOf(probe).find((sentence) => sentence.includes('?')) ?? probe) : probe;
  return earlier.some((turn) => {
    const candidates = [turn, ...sentencesOf(turn).filter((sentence) => sentence.includes('?'))];
    return candidates.some((candidate) => wordSimilarity(asked, candidate) >= REPEAT_SIMILARITY || wordSimilarity(probe, candidate) >= REPEAT_SIMILARITY);
  });
}

/**
 * The model's `pickedUp` as the participant said it: found in the answer ignoring case and
 * spacing, the answer's own words are returned; null when the answer does not hold it (a model
 * paraphrasing is not a quote).
 */
export function pickedUpIn(answer: string | null, pickedUp: string | null | undefined): string | null {
  const wanted = pickedUp
    ?.trim()
    .replace(/^["'“”‘’«»]+|["'“”‘’«»]+$/g, '')
    .trim();
  if (!answer || !wanted) return null;
  const pattern = new RegExp(wanted.split(/\s+/).map(escapeRegExp).join('\\s+'), 'iu');
  return pattern.exec(answer)?.[0] ?? null;
}
