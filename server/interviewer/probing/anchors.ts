import { ANCHOR_REASONS, type AnchorReason, type ProbeCue, type ProbeLanguage } from './language.js';
import { compileCue, matchCue, type CuePattern, type WordToken, tokenizeAnswer } from './words.js';

/** Longest span a probe quotes: a probe reflects a phrase, not the whole answer. */
export const MAX_SPAN_WORDS = 14;
/** A clause is worth a probe when one reason's cues add up to this (one strong cue, or two weak ones). */
const ANCHOR_THRESHOLD = 2;

/** Something in the answer that deserves a question, with the participant's words for it. */
export interface Anchor {
  reason: AnchorReason;
  /** Weight of the winning reason: the clearest anchor is asked about first. */
  strength: number;
  /** Sum of every reason's weight in the clause: between equally clear anchors, the richer clause first. */
  score: number;
  /** The participant's words, cut from the answer as said. */
  span: string;
  words: WordToken[];
  /** The span is a whole clause with its subject, so it can be reported ("You said you …"). */
  clause: boolean;
  /** The participant spoke of themselves in it. */
  personal: boolean;
  /** It starts with someone or something else as its subject ("She prints them out", "the app …"). */
  thirdParty: boolean;
  /** A question the winning cue brings (more precise than the reason's own), if any. */
  cueQuestion?: { text: string; personal: boolean };
  /** Position of the clause in the answer, for ties. */
  order: number;
}

interface CompiledLanguage {
  cues: { cue: ProbeCue; pattern: CuePattern }[];
  openers: CuePattern[];
  coordinators: CuePattern[];
  subjectStarters: Set<string>;
  frontedAdverbs: Set<string>;
  edgeFillers: CuePattern[];
  quantityQuestions: CuePattern[];
  finished: CuePattern[];
  presupposesDifficulty: CuePattern[];
}

const COMPILED = new WeakMap<ProbeLanguage, CompiledLanguage>();

export function compiled(language: ProbeLanguage): CompiledLanguage {
  let result = COMPILED.get(language);
  if (!result) {
    const singles = (words: string[] | undefined) => new Set((words ?? []).map((word) => compileCue(word).slots[0]![0]!.word));
    result = {
      cues: language.cues.map((cue) => ({ cue, pattern: compileCue(cue.pattern) })),
      openers: language.clauseOpeners.map(compileCue),
      coordinators: language.coordinators.map(compileCue),
      subjectStarters: singles(language.subjectStarters),
      frontedAdverbs: singles(language.frontedAdverbs),
      edgeFillers: language.edgeFillers.map(compileCue),
      quantityQuestions: language.quantityQuestions.map(compileCue),
      finished: language.finished.map(compileCue),
      presupposesDifficulty: language.presupposesDifficulty.map(compileCue),
    };
    COMPILED.set(language, result);
  }
  return result;
}

function longestAt(words: readonly WordToken[], index: number, patterns: readonly CuePattern[]): number {
  let best = 0;
  for (const pattern of patterns) best = Math.max(best, matchCue(words, index, pattern));
  return best;
}

/** Whether any of `patterns` occurs anywhere in `text`. */
export function mentions(text: string, language: ProbeLanguage, patterns: readonly CuePattern[]): boolean {
  const words = tokenizeAnswer(text, language.splitElision).filter((token) => token.kind !== 'boundary');
  return words.some((_, index) => longestAt(words, index, patterns) > 0);
}

/**
 * Clauses of the answer: punctuation ends one, an opener ("but", "because", "so") starts one, a
 * coordinator ("and") only when a subject follows it ("and I almost cancelled"); otherwise the
 * verbs share a subject and stay one clause ("tried it twice and gave up").
 */
function clausesOf(tokens: readonly WordToken[], language: ProbeLanguage, lexicon: CompiledLanguage): WordToken[][] {
  const clauses: WordToken[][] = [];
  let current: WordToken[] = [];
  const close = () => {
    if (current.length > 0) clauses.push(current);
    current = [];
  };
  const words = tokens.filter((token) => token.kind !== 'boundary');
  let wordIndex = 0;
  for (const token of tokens) {
    if (token.kind === 'boundary') {
      // A decimal comma or a quote mark inside a clause is not a clause edge; only real punctuation is.
      if (/[.,;:!?()…–—-]/.test(token.text)) close();
      continue;
    }
    const index = wordIndex;
    wordIndex += 1;
    if (current.length > 0 && longestAt(words, index, lexicon.openers) > 0) close();
    else if (current.length > 0 && longestAt(words, index, lexicon.coordinators) > 0) {
      const next = words[index + 1];
      if (next && (lexicon.subjectStarters.has(next.norm) || language.firstPerson.has(next.norm))) close();
    }
    current.push(token);
  }
  close();
  return clauses;
}

const YEAR = /^(19|20)\d\d$/;

function isNumber(token: WordToken, language: ProbeLanguage): boolean {
  if (token.kind === 'number') return !YEAR.test(token.norm);
  return language.numberWords.has(token.norm);
}

/** Trims fillers, openers and coordinators from the start of a clause, fillers from its end. */
function trimmed(clause: WordToken[], lexicon: CompiledLanguage): WordToken[] {
  let start = 0;
  let end = clause.length;
  for (;;) {
    const length = Math.max(
      longestAt(clause, start, lexicon.edgeFillers),
      longestAt(clause, start, lexicon.openers),
      longestAt(clause, start, lexicon.coordinators),
    );
    if (length === 0 || start + length >= end) break;
    start += length;
  }
  for (let cut = end - 1; cut > start; cut -= 1) {
    const tail = clause.slice(cut, end);
    if (longestAt(tail, 0, lexicon.edgeFillers) === tail.length) end = cut;
  }
  return clause.slice(start, end);
}

/**
 * The anchors of an answer, best first: per clause, the cues of each reason add up; the reason
 * with most weight names the clause (ties: `ANCHOR_REASONS` order) if it reaches the threshold.
 * A figure counts when the question asked for an amount or the clause weighs it ("only", "about",
 * "double"); a bare figure in a factual answer ("four people on it") does not.
 */
export function findAnchors(answer: string, questionText: string, language: ProbeLanguage): Anchor[] {
  const lexicon = compiled(language);
  const tokens = tokenizeAnswer(answer, language.splitElision);
  const asksAmount = mentions(questionText, language, lexicon.quantityQuestions);
  const anchors: Anchor[] = [];
  clausesOf(tokens, language, lexicon).forEach((clause, order) => {
    const weights = new Map<AnchorReason, number>();
    const firstHit = new Map<AnchorReason, number>();
    const cueQuestions = new Map<AnchorReason, { text: string; personal: boolean; weight: number }>();
    const hits = new Map<AnchorReason, number[]>();
    const add = (reason: AnchorReason, weight: number, at: number) => {
      hits.set(reason, [...(hits.get(reason) ?? []), weight]);
      if (!firstHit.has(reason)) firstHit.set(reason, at);
    };
    for (let index = 0; index < clause.length; index += 1) {
      let figureCue = false;
      for (const { cue, pattern } of lexicon.cues) {
        if (matchCue(clause, index, pattern) === 0) continue;
        if (cue.reason === 'number') figureCue = true;
        const weight = cue.weight ?? 2;
        add(cue.reason, weight, index);
        const known = cueQuestions.get(cue.reason);
        if (cue.question && (!known || known.weight < weight)) cueQuestions.set(cue.reason, { text: cue.question, personal: cue.personal ?? false, weight });
      }
      // "huit cents", "twenty five": one figure, counted once.
      // "twice" is a cue and a number word: counted once.
      if (!figureCue && isNumber(clause[index]!, language) && !(index > 0 && isNumber(clause[index - 1]!, language))) add('number', asksAmount ? 2 : 1, index);
    }
    // A reason weighs its strongest cue plus at most one for the others: "no … nada … nunca" is one difficulty said three ways, not three.
    for (const [reason, list] of hits) {
      const strongest = Math.max(...list);
      weights.set(reason, strongest + Math.min(1, list.reduce((sum, weight) => sum + weight, 0) - strongest));
    }
    let best: AnchorReason | null = null;
    for (const reason of ANCHOR_REASONS) {
      const weight = weights.get(reason) ?? 0;
      if (weight >= ANCHOR_THRESHOLD && (best === null || weight > weights.get(best)!)) best = reason;
    }
    if (best === null) return;
    // "No," before "nothing else": a clause of nothing but fillers and answer words says nothing to ask about.
    if (clause.every((_, index) => longestAt(clause, index, lexicon.edgeFillers) > 0)) return;
    let words = trimmed(clause, lexicon);
    let whole = true;
    if (words.length > MAX_SPAN_WORDS) {
      // A long clause is first cut at its coordinators ("write it on a whiteboard | and take a photo"), keeping the part with the cue.
      const cueToken = clause[firstHit.get(best)!]!;
      const parts: WordToken[][] = [[]];
      words.forEach((word, index) => {
        if (index > 0 && longestAt(words, index, lexicon.coordinators) > 0) parts.push([]);
        parts[parts.length - 1]!.push(word);
      });
      const part = parts.find((candidate) => candidate.includes(cueToken));
      if (part && part !== parts[0]) {
        words = trimmed(part, lexicon);
        whole = false;
      } else if (part) words = part;
    }
    if (words.length > MAX_SPAN_WORDS) {
      // Else where its last subject before the cue starts ("… ça me coûte presque le double"), keeping it reportable.
      const cueAt = words.indexOf(clause[firstHit.get(best)!]!);
      for (let at = cueAt; at > 0; at -= 1) {
        const norm = words[at]!.norm;
        if ((lexicon.subjectStarters.has(norm) || language.firstPerson.has(norm)) && words.length - at <= MAX_SPAN_WORDS) {
          // An article is not always the subject ("… cortaron | la luz"): the words are quoted, not reported.
          words = words.slice(at);
          whole = false;
          break;
        }
      }
    }
    if (words.length > MAX_SPAN_WORDS) {
      const cueAt = Math.max(0, words.indexOf(clause[firstHit.get(best)!]!));
      const from = cueAt < MAX_SPAN_WORDS - 2 ? 0 : Math.min(cueAt - 2, words.length - MAX_SPAN_WORDS);
      words = words.slice(from, from + MAX_SPAN_WORDS);
      whole = false;
    }
    const first = words[0]!;
    const second = words[1];
    const hasSubject =
      lexicon.subjectStarters.has(first.norm) ||
      (language.startsWithVerb?.(words) ?? false) ||
      language.firstPerson.has(first.norm) ||
      (lexicon.frontedAdverbs.has(first.norm) &&
        second !== undefined &&
        words.slice(1, 4).some((word) => lexicon.subjectStarters.has(word.norm) || language.firstPerson.has(word.norm)));
    const score = [...weights.values()].reduce((sum, weight) => sum + weight, 0);
    const cueQuestion = cueQuestions.get(best);
    anchors.push({
      reason: best,
      strength: weights.get(best)!,
      score,
      span: answer.slice(first.start, words[words.length - 1]!.end),
      words,
      clause: whole && hasSubject && words.length >= 3,
      personal: words.some((word) => language.firstPerson.has(word.norm)),
      thirdParty: lexicon.subjectStarters.has(first.norm) && !language.firstPerson.has(first.norm),
      ...(cueQuestion ? { cueQuestion: { text: cueQuestion.text, personal: cueQuestion.personal } } : {}),
      order,
    });
  });
  return anchors.sort((a, b) => b.strength - a.strength || b.score - a.score || a.order - b.order);
}

/** Whether the answer only closes the topic ("No, nothing else, that covers it"). */
export function isFinished(answer: string, language: ProbeLanguage): boolean {
  return mentions(answer, language, compiled(language).finished);
}
