import type { Sentence } from './nlp.js';

/**
 * What the built-in insights (one session) and the set summary (many) both do with key phrases
 * and the sentences around them: group phrases by their head word, name a group, and find each
 * parsed sentence word for word in its text (quotes must be the participant's own words).
 */

/** Each word of the sentences (lower-cased) with its lemma as it stands there. */
export function lemmasOf(sentences: readonly Sentence[]): Map<string, string> {
  return new Map(sentences.flatMap((sentence) => sentence.tokens.map((token) => [token.value.toLowerCase(), token.lemma] as const)));
}

/** A key phrase's head: its last word's lemma in the text it came from (`lemmas` of that text). */
export function headOf(lemmas: ReadonlyMap<string, string>, phrase: string): string {
  const last = phrase.split(/\s+/).at(-1)!.toLowerCase();
  return lemmas.get(last) ?? last;
}

/** A group's name: the phrase used most often for it, the longer one on a tie. */
export function favouritePhrase(phrases: ReadonlyMap<string, number>): string {
  return [...phrases].sort((a, b) => b[1] - a[1] || b[0].split(' ').length - a[0].split(' ').length)[0]![0];
}

/** The parsed sentences found word for word in `text`, in order, each with its trimmed text; those the parser reworded are left out. */
export function* verbatimSentences<S extends Pick<Sentence, 'text'>>(text: string, parsed: readonly S[]): Generator<{ sentence: S; text: string }> {
  let cursor = 0;
  for (const sentence of parsed) {
    const trimmed = sentence.text.trim();
    const at = text.indexOf(trimmed, cursor);
    if (at === -1 || trimmed === '') continue;
    cursor = at + trimmed.length;
    yield { sentence, text: trimmed };
  }
}

export function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** "a, b and c". */
export function listOf(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}
