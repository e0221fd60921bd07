import type { CompiledLexicon } from './lexicon.js';
import { isEdge, isNegated, isWord, scanPhrases, type Token } from './text.js';

export type Polarity = 'yes' | 'no' | 'unsure' | 'conflict' | 'none';

interface Cue {
  kind: 'yes' | 'no' | 'unsure';
  /** Particles and set answers ("yes", "not really") outrank clauses ("I didn't like it"). */
  strong: boolean;
}

/**
 * Reads the polarity of an answer from cue phrases of the lexicon, longest phrase first.
 * - Any uncertainty ("not sure", "maybe", "it depends", "no idea") makes it `unsure`.
 * - A negator before a positive cue flips it ("I don't think so", "not correct").
 * - Particles and set answers decide; both polarities among them is a `conflict` ("yes and no").
 *   Only without them do clausal answers decide ("I haven't used it yet"), because participants
 *   lead with the answer and then elaborate ("yes, but I didn't like it").
 * - "no" counts as a particle only when no noun follows it ("no problems" answers nothing), and
 *   short clauses ("I do", "it was") only when nothing but a tail follows ("it was hard" does not).
 * Hedges ("kind of", "probably", "sometimes") are no cue at all: alone they are `none`, with a
 * particle they leave it standing ("yeah kind of" is yes).
 * `coversAll` tells whether every word was part of a cue: a multiple-choice option such as "Not
 * sure" or "No" is itself an answer particle.
 * `setUncertaintyAside` reads what the answer leans to despite its uncertainty ("not sure, probably
 * yes" is yes): the certainty reading uses it for a value to confirm, never as a sure answer.
 */
export function readPolarity(
  tokens: readonly Token[],
  lexicon: CompiledLexicon,
  options: { setUncertaintyAside?: boolean } = {},
): { polarity: Polarity; coversAll: boolean } {
  const hits = scanPhrases(tokens, [
    { tag: 'unsure' as const, patterns: lexicon.unsure },
    { tag: 'yes' as const, patterns: lexicon.yes },
    { tag: 'no' as const, patterns: lexicon.no },
    { tag: 'clauseNo' as const, patterns: lexicon.clauseNo },
    { tag: 'shortNo' as const, patterns: lexicon.shortNo },
    { tag: 'shortYes' as const, patterns: lexicon.shortYes },
  ]);
  const covered = new Set<number>();
  for (const hit of hits) for (let index = hit.start; index < hit.end; index += 1) covered.add(index);
  const hitStarts = new Set(hits.map((hit) => hit.start));
  const startsCue = (index: number) => hitStarts.has(index) || (isWord(tokens[index]) && lexicon.noParticles.has(tokens[index]!.text));
  const onlyTailFollows = (index: number) => isEdge(tokens[index]) || lexicon.answerTail.has(tokens[index]!.text) || startsCue(index);

  const cues: Cue[] = [];
  for (const hit of hits) {
    if (hit.tag === 'unsure') {
      if (!options.setUncertaintyAside) cues.push({ kind: 'unsure', strong: true });
    } else if (hit.tag === 'yes') cues.push({ kind: isNegated(tokens, hit.start, lexicon) ? 'no' : 'yes', strong: true });
    else if (hit.tag === 'no') cues.push({ kind: 'no', strong: true });
    else if (hit.tag === 'clauseNo') cues.push({ kind: 'no', strong: false });
    else if (onlyTailFollows(hit.end)) cues.push({ kind: hit.tag === 'shortYes' ? 'yes' : 'no', strong: false });
  }
  tokens.forEach((token, index) => {
    if (covered.has(index) || !isWord(token)) return;
    const next = tokens[index + 1];
    const particle = lexicon.noParticles.has(token.text) && (isEdge(next) || lexicon.particleFollowers.has(next!.text) || startsCue(index + 1));
    const clauseFinal = lexicon.clauseFinalNegators.has(token.text) && isEdge(next);
    if (particle || clauseFinal) {
      cues.push({ kind: 'no', strong: true });
      covered.add(index);
    }
  });

  const coversAll = tokens.every((token, index) => !isWord(token) || covered.has(index));
  if (cues.some((cue) => cue.kind === 'unsure')) return { polarity: 'unsure', coversAll };
  for (const strong of [true, false]) {
    const kinds = new Set(cues.filter((cue) => cue.strong === strong).map((cue) => cue.kind));
    if (kinds.size > 1) return { polarity: 'conflict', coversAll };
    const [kind] = kinds;
    if (kind) return { polarity: kind, coversAll };
  }
  return { polarity: 'none', coversAll };
}
