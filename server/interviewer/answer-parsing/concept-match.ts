import type { ConceptLexicon } from './concepts.js';
import type { CompiledLexicon } from './lexicon.js';
import { compilePhrase, isNegated, isWord, matchPhrase, normalizeWord, phraseEndingAt, type PhrasePattern, type Token } from './text.js';

/** How an answer evoked a concept: by one of its words (synonym) or by a phrase that says it (paraphrase). */
export type ConceptEvidence = 'synonym' | 'paraphrase';

/** A language's concept lexicon and none-of-these phrases, prepared for lookups. */
export interface CompiledConcepts {
  /** Concepts by the stem of a word that evokes them; `member`: in answers only (see `ConceptEntry`). */
  byStem: Map<string, { concept: string; member: boolean }[]>;
  /** Words long enough to be the head of a compound ("arbeitskollege" ends in "kollege"), when the language compounds. */
  compoundHeads: { word: string; concept: string; member: boolean }[];
  phrases: { pattern: PhrasePattern; concept: string; evidence: ConceptEvidence }[];
  noneOfThese: PhrasePattern[];
  /** "almost", "presque": an option's words right after one do not name it. */
  approximators: Set<string>;
}

/** Languages whose nouns are written as one word ("Suchmaschine", "klantenservice"). */
const COMPOUNDING = new Set(['de', 'nl']);
/** A compound head this short is too often the end of an unrelated word. */
const MIN_COMPOUND_HEAD = 4;

export function compileConcepts(
  language: string,
  concepts: ConceptLexicon,
  noneOfThese: readonly string[],
  approximators: readonly string[],
  lexicon: CompiledLexicon,
): CompiledConcepts {
  const mode = lexicon.source.apostrophes;
  const byStem: CompiledConcepts['byStem'] = new Map();
  const compoundHeads: CompiledConcepts['compoundHeads'] = [];
  const phrases: CompiledConcepts['phrases'] = [];
  for (const [concept, entry] of Object.entries(concepts)) {
    const words = [...entry.words.map((word) => ({ word, member: false })), ...entry.members.map((word) => ({ word, member: true }))];
    for (const { word, member } of words) {
      const normal = normalizeWord(word, mode);
      if (normal.length !== 1) {
        // "vie privée", "'s ochtends": several tokens once normalised, still one word's evidence.
        phrases.push({ pattern: compilePhrase(word, mode), concept, evidence: 'synonym' });
        continue;
      }
      const stem = lexicon.stem(normal[0]!);
      byStem.set(stem, [...(byStem.get(stem) ?? []), { concept, member }]);
      if (COMPOUNDING.has(language) && normal[0]!.length >= MIN_COMPOUND_HEAD) compoundHeads.push({ word: normal[0]!, concept, member });
    }
    for (const phrase of entry.phrases) phrases.push({ pattern: compilePhrase(phrase, mode), concept, evidence: 'paraphrase' });
  }
  return {
    byStem,
    compoundHeads,
    phrases,
    noneOfThese: noneOfThese.map((phrase) => compilePhrase(phrase, mode)),
    approximators: new Set(approximators.flatMap((word) => normalizeWord(word, mode))),
  };
}

/**
 * The concepts a text evokes, with the strongest evidence for each. Phrases are read first and
 * their words are not read again ("app store" is the store, not an app). A word or phrase under
 * a negation or an exclusion ("not on Instagram", "anything but email") evokes nothing. An
 * option (`side: 'option'`) evokes concepts by their names, not their members. Words in
 * `skipStems` evoke nothing: the options' own words are judged by word matching alone ("big
 * business" is not "Small business" by way of a business concept).
 */
export function evokedConcepts(
  tokens: readonly Token[],
  lexicon: CompiledLexicon,
  concepts: CompiledConcepts,
  isExcluded: (tokens: readonly Token[], start: number) => boolean,
  side: 'answer' | 'option',
  skipStems: ReadonlySet<string> = new Set(),
): Map<string, ConceptEvidence> {
  const evoked = new Map<string, ConceptEvidence>();
  const add = (concept: string, evidence: ConceptEvidence) => {
    if (evoked.get(concept) !== 'synonym') evoked.set(concept, evidence);
  };
  const blocked = (start: number) => isNegated(tokens, start, lexicon) || isExcluded(tokens, start);
  const used = new Set<number>();
  for (let start = 0; start < tokens.length; start += 1) {
    let longest = 0;
    const hits: { concept: string; evidence: ConceptEvidence }[] = [];
    for (const phrase of concepts.phrases) {
      const length = matchPhrase(tokens, start, phrase.pattern);
      if (length === 0) continue;
      if (length > longest) hits.length = 0;
      if (length >= longest) {
        longest = length;
        hits.push(phrase);
      }
    }
    if (longest === 0) continue;
    for (let index = start; index < start + longest; index += 1) used.add(index);
    if (!blocked(start)) for (const hit of hits) add(hit.concept, hit.evidence);
    start += longest - 1;
  }
  tokens.forEach((token, index) => {
    if (!isWord(token) || used.has(index) || lexicon.stopwords.has(token.text)) return;
    const stem = lexicon.stem(token.text);
    if (skipStems.has(stem)) return;
    const usable = (entry: { member: boolean }) => side === 'answer' || !entry.member;
    const found = new Set((concepts.byStem.get(stem) ?? []).filter(usable).map((entry) => entry.concept));
    if (found.size === 0) {
      for (const head of concepts.compoundHeads) {
        if (usable(head) && token.text.length > head.word.length + 2 && token.text.endsWith(head.word)) found.add(head.concept);
      }
    }
    if (found.size === 0 || blocked(index)) return;
    for (const concept of found) add(concept, 'synonym');
  });
  return evoked;
}

/** Where a none-of-these phrase starts in the text, not itself negated ("not none of them"); -1 for none. */
export function noneOfTheseAt(tokens: readonly Token[], lexicon: CompiledLexicon, concepts: CompiledConcepts): number {
  for (let start = 0; start < tokens.length; start += 1) {
    for (const pattern of concepts.noneOfThese) {
      if (matchPhrase(tokens, start, pattern) > 0 && !isNegated(tokens, start, lexicon)) return start;
    }
  }
  return -1;
}

/** Whether a whole text is a none-of-these phrase ("None of the above" as an option). */
export function isNoneOfThese(tokens: readonly Token[], concepts: CompiledConcepts): boolean {
  const words = tokens.filter((token) => token.kind !== 'boundary');
  return words.length > 0 && phraseEndingAt(words, words.length, concepts.noneOfThese) === words.length;
}
