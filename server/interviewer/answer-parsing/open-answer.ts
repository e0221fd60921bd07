import type { CompiledLexicon } from './lexicon.js';
import { scanPhrases, tokenize } from './text.js';

export type VaguenessReason = 'empty' | 'too_short' | 'non_committal';

/**
 * Whether an open answer says something specific. Fillers ("um", "to be honest") are removed
 * and set phrases that commit to nothing ("I don't know", "nothing really", "same as before")
 * are recognised; what is left is counted in content words: not function words, not bare
 * verdicts ("good", "fine", "love") and not words that name nothing ("app", "everything").
 * - nothing but fillers: `empty`;
 * - no content word: `non_committal` when a non-committal phrase or verdict was said, else `too_short`;
 * - one content word ("price", "better support", "too expensive"): `too_short`;
 * - two or more ("dark mode please", "Login fails on Safari"): specific enough, not vague.
 */
export function assessOpen(text: string, lexicon: CompiledLexicon): VaguenessReason | null {
  const tokens = tokenize(text, lexicon.source.apostrophes);
  const hits = scanPhrases(tokens, [
    { tag: 'nonCommittal' as const, patterns: lexicon.nonCommittal },
    { tag: 'filler' as const, patterns: lexicon.fillers },
  ]);
  const consumedBy = new Map<number, 'nonCommittal' | 'filler'>();
  for (const hit of hits) for (let index = hit.start; index < hit.end; index += 1) consumedBy.set(index, hit.tag);
  const said = tokens.flatMap((token, index) =>
    (token.kind === 'word' || token.kind === 'number' || token.kind === 'ordinal') && consumedBy.get(index) !== 'filler' ? [{ token, index }] : [],
  );
  if (said.length === 0) return 'empty';
  const free = said.filter(({ index }) => !consumedBy.has(index));
  const content = free.filter(
    ({ token }) => token.kind !== 'word' || !(lexicon.functionWords.has(token.text) || lexicon.verdicts.has(token.text) || lexicon.generic.has(token.text)),
  );
  if (content.length === 0) {
    const nonCommittal = hits.some((hit) => hit.tag === 'nonCommittal') || free.some(({ token }) => lexicon.verdicts.has(token.text));
    return nonCommittal ? 'non_committal' : 'too_short';
  }
  return content.length === 1 ? 'too_short' : null;
}
