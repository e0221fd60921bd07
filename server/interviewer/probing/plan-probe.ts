import { assessOpenAnswer } from '../answer-parsing.js';
import { phrasesFor } from '../phrases.js';
import { type Anchor, compiled, findAnchors, isFinished, mentions } from './anchors.js';
import type { ProbeLanguage } from './language.js';
import { probeLanguageFor } from './languages.js';
import type { ProbePlan, ProbeRequest } from './probe-plan.js';
import { tokenOverlap, wordsOf } from './words.js';

/** Two phrases are "the same words" when they share at least half of the shorter one (see words.ts `tokenOverlap`). */
export const SAME_WORDS = 0.5;
/** An anchor's score needed for a probe after the first (one strong cue and another, or a very strong one). */
const FURTHER_PROBE_SCORE = 3;

/**
 * The built-in prober: reads an open answer for what deserves a question and words one open
 * question about it in the participant's own words, or returns null when the answer leaves
 * nothing open.
 *
 * 1. Anchors (anchors.ts): a problem, event, workaround, feeling, comparison or figure, best
 *    first; one whose words an earlier probe picked up is skipped.
 * 2. The anchor is reported in the second person ("You said you gave up after two tries.") when
 *    it is a whole clause the language layer can shift, else quoted as said ("You mentioned
 *    “pretty betrayed”."), then asked about with a question fitted to its reason, never one
 *    already asked on the question.
 * 3. An answer with no anchor that is vague (empty, too short, non-committal) gets the script's
 *    prompt if it fits, else the interviewer's own neutral phrase; one that closes the topic
 *    ("nothing else") gets nothing.
 * 4. Once the anchors are used up, the script's prompt may still be asked if it fits the answer.
 */
export function planProbe(request: ProbeRequest): ProbePlan | null {
  const language = probeLanguageFor(request.language);
  const answer = request.answer.trim();
  const probeNumber = request.probesAsked + 1;
  const assessment = assessOpenAnswer(answer, request.language);
  // "I don't know", "It was fine": a negation or a verdict there commits to nothing, it is no anchor.
  const committal = assessment.reason !== 'non_committal' && assessment.reason !== 'empty';
  const anchors = committal ? findAnchors(answer, request.question.text, language) : [];
  const prompt = request.question.followUp?.prompt?.trim() || null;

  for (const anchor of anchors) {
    // Each further probe needs a richer anchor: a second question on a passing remark is pressing, not listening.
    if (request.probesAsked > 0 && anchor.score < FURTHER_PROBE_SCORE) continue;
    if (request.pickedUpBefore.some((before) => tokenOverlap(before, anchor.span) >= SAME_WORDS)) continue;
    const text = wordProbe(anchor, language, request.askedOnQuestion);
    if (text) return { text, ledger: { reason: anchor.reason, pickedUp: anchor.span, source: 'builtin', probeNumber } };
  }

  const hasDifficulty = anchors.some((anchor) => anchor.reason === 'problem' || anchor.reason === 'workaround' || anchor.reason === 'event');
  const promptFits = prompt !== null && !wasAsked(prompt, request.askedOnQuestion) && scriptPromptFits(prompt, hasDifficulty, language);
  if (anchors.length > 0) {
    return promptFits ? { text: prompt, ledger: { reason: 'script_prompt', pickedUp: null, source: 'script', probeNumber } } : null;
  }

  if (!assessment.vague || isFinished(answer, language)) return null;
  if (promptFits) return { text: prompt, ledger: { reason: 'script_prompt', pickedUp: null, source: 'script', probeNumber } };
  const phrases = phrasesFor(request.language);
  for (const asked of [request.probesAsked, request.probesAsked + 1]) {
    const text = phrases.followUp(assessment.reason, asked);
    if (!wasAsked(text, request.askedOnQuestion)) return { text, ledger: { reason: 'vague', pickedUp: null, source: 'builtin', probeNumber } };
  }
  return null;
}

/**
 * Whether the script's follow-up prompt suits the answer: a prompt that takes a difficulty for
 * granted ("What was the hardest part?") only after an answer that names one; any other prompt
 * ("Why is that?", "What made you choose that?") fits.
 */
export function scriptPromptFits(prompt: string, answerNamesDifficulty: boolean, language: ProbeLanguage): boolean {
  const presupposes = mentions(prompt, language, compiled(language).presupposesDifficulty);
  return !presupposes || answerNamesDifficulty;
}

/** Whether `text` (or, for a probe, its question) was already said on this question. */
function wasAsked(text: string, askedOnQuestion: readonly string[]): boolean {
  const words = wordsOf(text).join(' ');
  return askedOnQuestion.some((asked) => wordsOf(asked).join(' ').includes(words));
}

function wordProbe(anchor: Anchor, language: ProbeLanguage, askedOnQuestion: readonly string[]): string | null {
  const opening = reflect(anchor, language);
  const questions = [
    ...(anchor.cueQuestion && (!anchor.cueQuestion.personal || anchor.personal) ? [anchor.cueQuestion.text] : []),
    ...((anchor.thirdParty ? language.thirdPartyQuestions[anchor.reason] : undefined) ?? language.questions[anchor.reason]),
  ];
  const question = questions.find((candidate) => !wasAsked(candidate, askedOnQuestion));
  return question ? `${opening} ${question}` : null;
}

/** The anchor said back: reported in the second person when the language layer can shift it, else quoted as said. */
function reflect(anchor: Anchor, language: ProbeLanguage): string {
  const replacements = anchor.clause ? language.shift(anchor.words) : null;
  const text = rebuild(anchor, replacements ?? [], language);
  return replacements ? language.reported(text) : language.quoted(text);
}

/** The span's text with the replacements applied and the original spacing kept. */
function rebuild(anchor: Anchor, replacements: readonly (string | undefined)[], language: ProbeLanguage): string {
  const { words } = anchor;
  let text = '';
  words.forEach((word, index) => {
    if (index > 0) text += anchor.span.slice(words[index - 1]!.end - words[0]!.start, word.start - words[0]!.start);
    let replacement = replacements[index];
    if (replacement !== undefined && /['’]$/.test(word.text) && !/['’]$/.test(replacement) && replacement !== '') replacement += ' ';
    let piece = replacement ?? word.text;
    // A capital at the start is the sentence's, unless the next word has one too ("Chorus Pro", "La Poste": a name).
    const name = /^\p{Lu}/u.test(words[1]?.text ?? '');
    if (index === 0 && replacement === undefined && !name && language.lowercaseFirst(word)) piece = piece.charAt(0).toLowerCase() + piece.slice(1);
    text += piece;
  });
  return text.replace(/\s{2,}/g, ' ').trim();
}
