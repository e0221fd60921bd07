import { createRequire } from 'node:module';
import { interviewLanguageOf, type TInterviewLanguage } from '../../../shared/languages.js';
import { REDACTION_MARKER } from '../../../shared/schemas/redactions.js';
import { escapeRegExp } from '../../lib/escape-reg-exp.js';

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

/** Copies shorter than this that share words with the span are taken for coincidence, unless they hold the whole span. */
const MIN_COPIED_CHARACTERS = 12;

/**
 * Removes from `copy` (a quote, a summary, an action item, a parsed answer, a stored payload:
 * text made from the utterance) whatever it copied of `original[start, end)`. Every stretch the
 * copy shares with the original that overlaps the span (at least 12 characters long, or holding
 * the whole span) has its overlapping part replaced by the marker. Case is ignored (a summary
 * capitalises the sentence it starts with). Quadratic in the two lengths, which are utterance-
 * and summary-sized.
 */
function scrubCopy(copy: string, original: string, start: number, end: number): string {
  if (copy === '' || end <= start) return copy;
  const lowerCopy = copy.toLowerCase();
  const lowerOriginal = original.toLowerCase();
  // Lower-casing may change the length of some scripts' text: compare as written then.
  const a = lowerCopy.length === copy.length ? lowerCopy : copy;
  const b = lowerOriginal.length === original.length ? lowerOriginal : original;
  const wholeSpanCounts = original.slice(start, end).trim().length >= 2;
  const marked = new Uint8Array(copy.length);
  let any = false;
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
      const holdsSpan = from <= start && j >= end;
      if (length < MIN_COPIED_CHARACTERS && !(holdsSpan && wholeSpanCounts)) continue;
      const markFrom = i - length + Math.max(0, start - from);
      const markTo = i - length + Math.min(length, end - from);
      for (let k = markFrom; k < markTo; k++) marked[k] = 1;
      any = true;
    }
    [previous, current] = [current, previous];
  }
  if (!any) return copy;
  let out = '';
  for (let k = 0; k < copy.length; k++) {
    if (!marked[k]) out += copy[k];
    else if (k === 0 || !marked[k - 1]) out += REDACTION_MARKER;
  }
  return out;
}

// Read with require: a JSON import of a package loses its import attribute in the bundled build.
const STOPWORDS_ISO = createRequire(import.meta.url)('stopwords-iso/stopwords-iso.json') as Record<string, string[]>;
const stopwordSets = new Map<TInterviewLanguage, Set<string>>();

function stopwordsOf(language: TInterviewLanguage): Set<string> {
  let set = stopwordSets.get(language);
  if (!set) {
    set = new Set((STOPWORDS_ISO[language] ?? []).map((word) => word.toLowerCase()));
    stopwordSets.set(language, set);
  }
  return set;
}

/** A word as the word pass sees it: a run of letters (with their marks) and digits, so "O'Brien" is "O" and "Brien". */
const WORD = /[\p{L}\p{M}\p{N}]+/gu;
const WORD_CHARACTER = '[\\p{L}\\p{M}\\p{N}]';

/**
 * The words of a removed span that could name someone or something on their own: not a stop word
 * of the interview's language (English when it has none of ours), and at least two letters or a
 * digit. "John Smith and I live at 12 Elm Road" gives john, smith, live, 12, elm, road. Markers of
 * earlier redactions in the span are not words of it.
 */
export function distinctiveWords(span: string, language: string | null | undefined): string[] {
  const stopwords = stopwordsOf(interviewLanguageOf(language) ?? 'en');
  const words = new Set<string>();
  for (const [word] of span.split(REDACTION_MARKER).join(' ').matchAll(WORD)) {
    const lower = word.toLowerCase();
    if (stopwords.has(lower)) continue;
    if (!/\p{N}/u.test(word) && (word.match(/\p{L}/gu) ?? []).length < 2) continue;
    words.add(lower);
  }
  // Longest first, so an alternation never stops at a shorter word another one starts with.
  return [...words].sort((a, b) => b.length - a.length || a.localeCompare(b));
}

/** Markers side by side (what "John Smith" becomes word by word) read as one. */
const MARKER_RUN = /\[REDACTED\](?:\s*\[REDACTED\])+/g;

/**
 * Replaces every whole-word occurrence of `words` (case-insensitive) by the marker, leaving
 * markers already there alone; markers that end up side by side merge into one.
 */
function wordScrubber(words: readonly string[]): (copy: string) => string {
  if (words.length === 0) return (copy) => copy;
  const alternatives = words.map(escapeRegExp).join('|');
  const pattern = new RegExp(`(?<!${WORD_CHARACTER})(?:${alternatives})(?!${WORD_CHARACTER})`, 'giu');
  return (copy) => {
    if (copy === '') return copy;
    const scrubbed = copy
      .split(REDACTION_MARKER)
      .map((piece) => piece.replace(pattern, REDACTION_MARKER))
      .join(REDACTION_MARKER);
    return scrubbed === copy ? copy : scrubbed.replace(MARKER_RUN, REDACTION_MARKER);
  };
}

/**
 * How text made from the utterance (insights, parsed answers, webhook facts) loses the removed
 * words: first every stretch it copied of the span (`scrubCopy`), then every other occurrence of
 * the span's distinctive words (`distinctiveWords`), since a summary or a label rewords what it
 * takes ("The participant, John Smith, described…", "Lives at Elm Road", a topic "Smith"). The
 * word pass removes such a word from sentences about something else too: safe over sorry.
 */
export function derivedTextScrubber(original: string, start: number, end: number, language: string | null | undefined): (copy: string) => string {
  const byWord = wordScrubber(distinctiveWords(original.slice(start, end), language));
  return (copy) => byWord(scrubCopy(copy, original, start, end));
}

/** Whether a text holds nothing but markers, spaces and punctuation (a label with nothing left to say). */
export function onlyMarkers(text: string): boolean {
  return text.split(REDACTION_MARKER).join('').replace(/[\s\p{P}\p{S}]/gu, '') === '';
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
