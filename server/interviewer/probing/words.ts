/**
 * The text layer of the prober. Unlike the answer parsers' tokenizer (answer-parsing/text.ts),
 * which folds the text it reads, every token here keeps its place in the answer: a probe quotes
 * the participant's words as they said them, so spans are cut from the original text.
 */

export interface WordToken {
  /** As written in the answer. */
  text: string;
  /** Lowercased, diacritics folded, apostrophes dropped: what lexicons are matched against. */
  norm: string;
  start: number;
  end: number;
  kind: 'word' | 'number' | 'boundary';
}

export function normalize(word: string): string {
  return word
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/['’`´]/g, '')
    .toLowerCase();
}

const TOKEN_PATTERN = /(\d+(?:[.,]\d+)*)|(\p{L}+(?:['’]\p{L}+|\.\p{L}{2,}(?=[\s,;:!?)]|$))*)|([.,;:!?()…"“”„«»]+|\s[-–—]\s)/gu;

/**
 * Words, numbers and boundaries (punctuation that ends a clause). With `splitElision` an elided
 * word is a token of its own ("j'ai" → "j'" + "ai"), so French clitics can be read and shifted.
 */
export function tokenizeAnswer(text: string, splitElision: boolean): WordToken[] {
  const tokens: WordToken[] = [];
  for (const match of text.matchAll(TOKEN_PATTERN)) {
    const [whole, digits, word] = match;
    const start = match.index;
    if (digits !== undefined) {
      // "1,200" is one number; a comma followed by a space was already excluded by the pattern.
      tokens.push({ text: digits, norm: digits.replace(/,/g, ''), start, end: start + digits.length, kind: 'number' });
    } else if (word !== undefined) {
      // "impots.gouv" is one word (a site's name); the elision split below only cuts at apostrophes.
      const parts = splitElision ? word.split(/(?<=^\p{L}{1,2}['’])|(?<=^qu['’])|(?<=^jusqu['’])|(?<=^lorsqu['’])|(?<=^puisqu['’])/u) : [word];
      let offset = start;
      for (const part of parts) {
        tokens.push({ text: part, norm: normalize(part), start: offset, end: offset + part.length, kind: 'word' });
        offset += part.length;
      }
    } else {
      tokens.push({ text: whole.trim(), norm: whole.trim(), start, end: start + whole.length, kind: 'boundary' });
    }
  }
  return tokens;
}

/** The words of a text as normalised tokens (for overlap and repeat checks). */
export function wordsOf(text: string): string[] {
  return tokenizeAnswer(text, true)
    .filter((token) => token.kind !== 'boundary')
    .map((token) => token.norm)
    .filter((norm) => norm.length > 0);
}

/**
 * How much two phrases share: the tokens they have in common as a share of the shorter one
 * (a multiset count, so "the … the" is not counted twice against one "the"). 1 when one phrase
 * lies within the other.
 */
export function tokenOverlap(a: string, b: string): number {
  const left = wordsOf(a);
  const right = wordsOf(b);
  if (left.length === 0 || right.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const word of right) counts.set(word, (counts.get(word) ?? 0) + 1);
  let shared = 0;
  for (const word of left) {
    const count = counts.get(word) ?? 0;
    if (count > 0) {
      shared += 1;
      counts.set(word, count - 1);
    }
  }
  return shared / Math.min(left.length, right.length);
}

/**
 * A lexicon pattern: space-separated slots, each `a|b` alternatives; a word ending in `*` matches
 * any word it begins ("frustrat*"), one starting with `*` any word it ends ("*er dan": a Dutch
 * comparative), `_` any one word. Words are written naturally and normalised.
 */
export interface CuePattern {
  slots: { word: string; prefix: boolean; suffix: boolean }[][];
}

export function compileCue(source: string): CuePattern {
  return {
    slots: source
      .trim()
      .split(/\s+/)
      .map((slot) =>
        slot.split('|').map((alternative) => {
          const prefix = alternative.length > 1 && alternative.endsWith('*');
          const suffix = alternative.length > 1 && alternative.startsWith('*');
          return { word: normalize(alternative.replace(/^\*|\*$/g, '')), prefix, suffix };
        }),
      ),
  };
}

/** Length in tokens of `pattern` matched at `start` among `words` (word/number tokens only), or 0. */
export function matchCue(words: readonly WordToken[], start: number, pattern: CuePattern): number {
  for (let offset = 0; offset < pattern.slots.length; offset += 1) {
    const token = words[start + offset];
    if (!token) return 0;
    const ok = pattern.slots[offset]!.some(
      ({ word, prefix, suffix }) =>
        word === '_' ||
        (prefix ? token.norm.startsWith(word) : suffix ? token.norm.endsWith(word) && token.norm.length > word.length + 2 : token.norm === word),
    );
    if (!ok) return 0;
  }
  return pattern.slots.length;
}
