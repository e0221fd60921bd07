import { createRequire } from 'node:module';
import { interviewLanguageOf, type TInterviewLanguage } from '../../../shared/languages.js';
import { REDACTION_MARKER } from '../../../shared/schemas/redactions.js';

/** What a redaction does to the utterance's text: the span as removed and where the marker now stands. */
export interface PlannedRedaction {
  /** The span removed from the old text (the caller's, widened over markers and surrogate pairs it cut into). */
  start: number;
  end: number;
  text: string;
  /** Where the marker stands in the new text. */
  markerStart: number;
  markerEnd: number;
  /** How much the text after the span moved. */
  delta: number;
}

function markersIn(text: string): { start: number; end: number }[] {
  const found: { start: number; end: number }[] = [];
  for (let at = text.indexOf(REDACTION_MARKER); at !== -1; at = text.indexOf(REDACTION_MARKER, at + REDACTION_MARKER.length)) {
    found.push({ start: at, end: at + REDACTION_MARKER.length });
  }
  return found;
}

const isHigh = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLow = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/**
 * Replaces `text[start, end)` by the marker. A span that cuts into an earlier marker takes that
 * marker whole (no "[RED[REDACTED]" left behind), one that cuts a surrogate pair takes the pair.
 * null when the span holds nothing but earlier markers and spaces: there is nothing left to remove.
 */
export function planRedaction(text: string, start: number, end: number): PlannedRedaction | null {
  let from = start;
  let to = end;
  for (const marker of markersIn(text)) {
    if (marker.start < to && from < marker.end) {
      from = Math.min(from, marker.start);
      to = Math.max(to, marker.end);
    }
  }
  if (from > 0 && isLow(text.charCodeAt(from)) && isHigh(text.charCodeAt(from - 1))) from -= 1;
  if (to < text.length && isLow(text.charCodeAt(to)) && isHigh(text.charCodeAt(to - 1))) to += 1;
  if (text.slice(from, to).split(REDACTION_MARKER).join('').trim() === '') return null;
  const next = text.slice(0, from) + REDACTION_MARKER + text.slice(to);
  return { start: from, end: to, text: next, markerStart: from, markerEnd: from + REDACTION_MARKER.length, delta: REDACTION_MARKER.length - (to - from) };
}

/** Copies shorter than this that share characters with the span are taken for coincidence, unless they hold the whole span. */
const MIN_COPIED_CHARACTERS = 12;

/** A word as the scrubber sees it: a run of letters (with their marks) and digits, so "O'Brien" is "O" and "Brien". */
const WORD = /[\p{L}\p{M}\p{N}]+/gu;
const isWordCharacter = (character: string) => character !== '' && /[\p{L}\p{M}\p{N}]/u.test(character);

/**
 * Whether the whole span, found alone in a copy, is taken for a copy of it: one that says something
 * (a letter, or a number of three digits or more). A bare "4" or "14" turns up in any text (a
 * rating, a duration) and goes only where a longer stretch around it was copied.
 */
function spanStandsAlone(span: string): boolean {
  const trimmed = span.split(REDACTION_MARKER).join('').trim();
  return trimmed.length >= 2 && (/\p{L}/u.test(trimmed) || (trimmed.match(/\p{Nd}/gu) ?? []).length >= 3);
}

/**
 * Marks in `copy` (a quote, a summary, an action item, a parsed answer, a stored payload: text
 * made from the utterance) whatever it copied of `original[start, end)`: every stretch the copy
 * shares with the original that overlaps the span, at least 12 characters long, or holding the
 * whole span as words of its own (not "Al" inside "Also") when it counts alone (spanStandsAlone). Case is ignored (a summary capitalises
 * the sentence it starts with). Quadratic in the two lengths, which are utterance- and summary-sized.
 */
function markCopiedStretches(marked: Uint8Array, copy: string, original: string, start: number, end: number, wholeSpanCounts: boolean): void {
  if (end <= start) return;
  const lowerCopy = copy.toLowerCase();
  const lowerOriginal = original.toLowerCase();
  // Lower-casing may change the length of some scripts' text: compare as written then.
  const a = lowerCopy.length === copy.length ? lowerCopy : copy;
  const b = lowerOriginal.length === original.length ? lowerOriginal : original;
  const wordAtStart = isWordCharacter(original.charAt(start));
  const wordAtEnd = isWordCharacter(original.charAt(end - 1));
  let previous = new Int32Array(b.length + 1);
  let current = new Int32Array(b.length + 1);
  for (let i = 1; i <= a.length; i++) {
    const charCode = a.charCodeAt(i - 1);
    for (let j = 1; j <= b.length; j++) {
      if (b.charCodeAt(j - 1) !== charCode) {
        current[j] = 0;
        continue;
      }
      const length = previous[j - 1]! + 1;
      current[j] = length;
      // copy[i - length, i) equals original[j - length, j).
      const from = j - length;
      if (from >= end || j <= start) continue;
      const markFrom = i - length + Math.max(0, start - from);
      const markTo = i - length + Math.min(length, end - from);
      if (length < MIN_COPIED_CHARACTERS) {
        if (!wholeSpanCounts || from > start || j < end) continue;
        // Where the stretch ends with the span, the copy's next character must not carry the word on.
        if (from === start && wordAtStart && isWordCharacter(copy.charAt(markFrom - 1))) continue;
        if (j === end && wordAtEnd && isWordCharacter(copy.charAt(markTo))) continue;
      }
      for (let k = markFrom; k < markTo; k++) marked[k] = 1;
    }
    [previous, current] = [current, previous];
  }
}

// Read with require: a JSON import of a package loses its import attribute in the bundled build.
const STOPWORDS_ISO = createRequire(import.meta.url)('stopwords-iso/stopwords-iso.json') as Record<string, string[]>;
const stopwordSets = new Map<TInterviewLanguage, Set<string>>();

function stopwordsOf(language: string | null | undefined): Set<string> {
  const code = interviewLanguageOf(language) ?? 'en';
  let set = stopwordSets.get(code);
  if (!set) {
    set = new Set((STOPWORDS_ISO[code] ?? []).map((word) => word.toLowerCase()));
    stopwordSets.set(code, set);
  }
  return set;
}

/** Not a stop word of the interview's language, and at least two letters or a digit. */
function isDistinctive(word: string, stopwords: Set<string>): boolean {
  if (stopwords.has(word.toLowerCase())) return false;
  return /\p{N}/u.test(word) || (word.match(/\p{L}/gu) ?? []).length >= 2;
}

/**
 * The distinctive words of a removed span (isDistinctive: not a stop word of the interview's
 * language, English when it has none of ours, and at least two letters or a digit), the words a
 * copied run of the span is trimmed to. "John Smith and I live at 12 Elm Road" gives john, smith,
 * live, 12, elm, road. Markers of earlier redactions in the span are not words of it.
 */
export function distinctiveWords(span: string, language: string | null | undefined): string[] {
  const stopwords = stopwordsOf(language);
  const words = new Set<string>();
  for (const [word] of span.split(REDACTION_MARKER).join(' ').matchAll(WORD)) {
    if (isDistinctive(word, stopwords)) words.add(word.toLowerCase());
  }
  // Longest first, so an alternation never stops at a shorter word another one starts with.
  return [...words].sort((a, b) => b.length - a.length || a.localeCompare(b));
}

/**
 * A word of the span, and whether it names someone or something on its own, so that a copy that
 * rewords the span still loses it ("The participant, John Smith, …", a topic "Smith"):
 * `any` for an identifier (letters and digits, "B4", "SW1A") or a word of an email address's local
 * part; `capitalised` for a proper name, written capitalised (or in capitals) where the sentence did
 * not make it so, and only where the copy writes it capitalised too ("Will", not "will"); null for
 * every other word (a number, a common word), which goes from a copy only next to a naming word of
 * the span in the span's order ("12 Elm Road"), or as the whole span.
 */
interface SpanWord {
  lower: string;
  distinctive: boolean;
  alone: 'any' | 'capitalised' | null;
}

/** Text before a word that makes it a sentence's first (capitalised by grammar, not because it names anyone). */
const SENTENCE_START = /(?:^|[.!?…]["'”’)\]]*\s+|\n\s*|["“‘]\s*)$/u;

function spanWordsOf(original: string, start: number, end: number, language: string | null | undefined): SpanWord[] {
  const stopwords = stopwordsOf(language);
  const span = original.slice(start, end).split(REDACTION_MARKER).join(' '.repeat(REDACTION_MARKER.length));
  const emailLocalParts = [...span.matchAll(/[\p{L}\p{N}._%+-]+(?=@[\p{L}\p{N}-]+\.)/gu)].map((match) => ({
    from: match.index,
    to: match.index + match[0].length,
  }));
  return [...span.matchAll(WORD)].map((match) => {
    const word = match[0];
    const at = match.index;
    const distinctive = isDistinctive(word, stopwords);
    let alone: SpanWord['alone'] = null;
    if (distinctive && /\p{L}/u.test(word) && /\p{N}/u.test(word)) alone = 'any';
    else if (distinctive && (word.match(/\p{L}/gu) ?? []).length >= 3 && emailLocalParts.some((part) => at >= part.from && at < part.to)) alone = 'any';
    else if (distinctive && /^\p{Lu}/u.test(word) && !SENTENCE_START.test(original.slice(Math.max(0, start + at - 8), start + at))) alone = 'capitalised';
    return { lower: word.toLowerCase(), distinctive, alone };
  });
}

/** What may stand between two words of one copied run: a few spaces or punctuation, never a line break. */
const RUN_GAP = /^[^\p{L}\p{M}\p{N}\n]{1,3}$/u;
/** A gap that goes with the words around it when both are marked: "John Smith" becomes one marker, "John. Smith" two. */
const JOINED_GAP = /^[\s\p{Pd}'’]+$/u;

/**
 * Marks in `copy` each run of the span's words it repeats in the span's order (case ignored): the
 * whole span reworded (other spacing or punctuation, two words or more), or any part of it that
 * holds a naming word (SpanWord.alone), without the stop words at its ends.
 */
function markWordRuns(marked: Uint8Array, copy: string, words: readonly SpanWord[], wholeSpanCounts: boolean): void {
  if (words.length === 0) return;
  // The words of earlier markers are not words of the copy.
  const markers = markersIn(copy);
  const copyWords = [...copy.matchAll(WORD)]
    .map((match) => ({ text: match[0], lower: match[0].toLowerCase(), start: match.index, end: match.index + match[0].length }))
    .filter((word) => !markers.some((marker) => word.start < marker.end && marker.start < word.end));
  const markWords = (from: number, to: number) => {
    for (let index = from; index < to; index++) {
      const word = copyWords[index]!;
      for (let k = word.start; k < word.end; k++) marked[k] = 1;
      const next = copyWords[index + 1];
      if (index + 1 < to && next && JOINED_GAP.test(copy.slice(word.end, next.start))) for (let k = word.end; k < next.start; k++) marked[k] = 1;
    }
  };
  for (let p = 0; p < copyWords.length; p++) {
    for (let q = 0; q < words.length; q++) {
      if (words[q]!.lower !== copyWords[p]!.lower) continue;
      let length = 1;
      while (
        p + length < copyWords.length &&
        q + length < words.length &&
        words[q + length]!.lower === copyWords[p + length]!.lower &&
        RUN_GAP.test(copy.slice(copyWords[p + length - 1]!.end, copyWords[p + length]!.start))
      ) {
        length += 1;
      }
      if (wholeSpanCounts && length === words.length && length >= 2) {
        markWords(p, p + length);
        continue;
      }
      let first = 0;
      let last = length;
      while (first < last && !words[q + first]!.distinctive) first += 1;
      while (last > first && !words[q + last - 1]!.distinctive) last -= 1;
      const run = words.slice(q + first, q + last);
      const names =
        run.length > 1
          ? run.some((word) => word.alone !== null)
          : run.length === 1 && (run[0]!.alone === 'any' || (run[0]!.alone === 'capitalised' && /^\p{Lu}/u.test(copyWords[p + first]!.text)));
      if (names) markWords(p + first, p + last);
    }
  }
}

/** A number as people write it: digits with spaces, dots, dashes, slashes or brackets between, a + before. */
const NUMBER = /(?<![\p{L}\p{N}])\+?\(?\d(?:[\d().\-/ ]*\d)?\)?(?![\p{L}\p{N}])/gu;
/** Digits a number must have (leading zeros aside) for another way of writing it to be taken for a copy. */
const MIN_NUMBER_DIGITS = 6;

const significant = (digits: string) => digits.replace(/^0+/, '');

/**
 * Marks in `copy` the span's long numbers written another way: "+33 4 14 22 35 01" as
 * "04 14 22 35 01", "0414223501" or "+33 (0)4 14 22 35 01". A number in the copy is one of them
 * when its digits, separators, a trunk "(0)" and leading zeros aside, are at least six and end the
 * span's number (a country code dropped, the number cut short) or hold it whole (one added).
 */
function markNumbers(marked: Uint8Array, copy: string, numbers: readonly string[]): void {
  if (numbers.length === 0) return;
  for (const match of copy.matchAll(NUMBER)) {
    const digits = significant(match[0].replace(/\(0\)/g, '').replace(/\D/g, ''));
    if (digits.length < MIN_NUMBER_DIGITS) continue;
    if (!numbers.some((number) => number.endsWith(digits) || digits.includes(number))) continue;
    for (let k = match.index; k < match.index + match[0].length; k++) marked[k] = 1;
  }
}

/** Markers side by side (what "John Smith" becomes when a copy has them apart) read as one. */
const MARKER_RUN = /\[REDACTED\](?:\s*\[REDACTED\])+/g;

/**
 * The copy with each marked stretch replaced by one marker, the spaces at its ends kept (a stretch
 * copied with the space before the span); markers that end up side by side merge into one.
 */
function applyMarks(copy: string, marked: Uint8Array): string {
  if (!marked.includes(1)) return copy;
  for (let k = 0; k < copy.length; k++) {
    if (!marked[k] || (k > 0 && marked[k - 1])) continue;
    let to = k;
    while (to < copy.length && marked[to]) to += 1;
    for (let at = k; at < to && /\s/u.test(copy[at]!); at++) marked[at] = 0;
    for (let at = to - 1; at >= k && /\s/u.test(copy[at]!); at--) marked[at] = 0;
    k = to - 1;
  }
  let out = '';
  for (let k = 0; k < copy.length; k++) {
    if (!marked[k]) out += copy[k];
    else if (k === 0 || !marked[k - 1]) out += REDACTION_MARKER;
  }
  return out.replace(MARKER_RUN, REDACTION_MARKER);
}

/**
 * How text made from the utterance (insights, parsed answers, webhook facts) loses its copies of
 * the removed span, and nothing else: stretches copied from around it (markCopiedStretches); the
 * span itself, or a part of it that names someone or something, reworded or cut short
 * (markWordRuns); its long numbers written another way (markNumbers). A word or a number of the
 * span that turns up on its own, not as part of such a copy (the "14" of a phone number in
 * "3 min 14 s", a rating of 4, the "live" of "I live at"), is not a copy and stays.
 */
export function derivedTextScrubber(original: string, start: number, end: number, language: string | null | undefined): (copy: string) => string {
  const words = spanWordsOf(original, start, end, language);
  const wholeSpanCounts = spanStandsAlone(original.slice(start, end));
  const numbers = [...original.slice(start, end).matchAll(NUMBER)]
    .map((match) => significant(match[0].replace(/\(0\)/g, '').replace(/\D/g, '')))
    .filter((digits) => digits.length >= MIN_NUMBER_DIGITS);
  return (copy) => {
    if (copy === '') return copy;
    const marked = new Uint8Array(copy.length);
    markCopiedStretches(marked, copy, original, start, end, wholeSpanCounts);
    markWordRuns(marked, copy, words, wholeSpanCounts);
    markNumbers(marked, copy, numbers);
    return applyMarks(copy, marked);
  };
}

/** Whether a text holds nothing but markers, spaces and punctuation (a label with nothing left to say). */
export function onlyMarkers(text: string): boolean {
  return (
    text
      .split(REDACTION_MARKER)
      .join('')
      .replace(/[\s\p{P}\p{S}]/gu, '') === ''
  );
}

/**
 * A quote of the redacted utterance cut again from its new text at the place it was cut from (so
 * it reads as the transcript does now, the marker where the span was); null when the old text
 * does not hold the quote verbatim (ignoring case), as a reworded quote, which is scrubbed instead.
 */
export function recutQuote(quote: string, original: string, plan: PlannedRedaction): string | null {
  if (quote === '') return null;
  const lowerOriginal = original.toLowerCase();
  const lowerQuote = quote.toLowerCase();
  const comparable = lowerOriginal.length === original.length && lowerQuote.length === quote.length;
  const at = comparable ? lowerOriginal.indexOf(lowerQuote) : original.indexOf(quote);
  if (at === -1) return null;
  const moved = (offset: number, side: 'start' | 'end') =>
    offset <= plan.start ? offset : offset >= plan.end ? offset + plan.delta : side === 'start' ? plan.markerStart : plan.markerEnd;
  return plan.text.slice(moved(at, 'start'), moved(at + quote.length, 'end'));
}

/** Keys of stored payloads that hold identifiers and codes, never words of a transcript. */
const IDENTIFIER_KEY = /(?:^id$|Id$|_id$|^type$|^event$|^locale$|^status$|Status$|_status$|^plan$|At$|_at$|url$|Url$)/;

/** A stored JSON document (a webhook event's facts) with `scrub` applied to its text values (identifiers and codes kept). */
export function scrubJson(value: unknown, scrub: (text: string) => string, key = ''): unknown {
  if (typeof value === 'string') return IDENTIFIER_KEY.test(key) ? value : scrub(value);
  if (Array.isArray(value)) return value.map((item) => scrubJson(item, scrub, key));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, scrubJson(item, scrub, name)]));
  }
  return value;
}

/**
 * The utterance's keywords after a redaction: those still in its text. Keywords are phrases as
 * written in the text, so one that held any of the removed words is gone; no new analysis runs.
 */
export function keywordsAfterRedaction(keywords: readonly string[] | null, text: string): string[] | null {
  if (keywords === null) return null;
  const remaining = text.split(REDACTION_MARKER).join('\u0000').toLowerCase();
  return keywords.filter((keyword) => keyword.trim() !== '' && remaining.includes(keyword.toLowerCase()));
}
