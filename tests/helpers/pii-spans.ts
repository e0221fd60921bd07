import { PII_KINDS, type TPiiKind } from '../../shared/schemas/pii.js';
import { escapeRegExp } from '../../server/lib/escape-reg-exp.js';
import { PII_MARKERS } from '../../server/analysis/pii-redaction.js';

export interface LabelledSpan {
  kind: TPiiKind;
  start: number;
  end: number;
}

const KIND_OF_MARKER = new Map(PII_KINDS.map((kind) => [PII_MARKERS[kind], kind]));
const MARKER = new RegExp(PII_KINDS.map((kind) => escapeRegExp(PII_MARKERS[kind])).join('|'), 'g');

/**
 * The labelled spans of an item: where in `text` each marker of `expected` stands. `expected` is
 * `text` with each span replaced by its marker and nothing else changed, so the pieces between
 * markers are `text`'s own and the markers cover what lies between them (the shortest reading:
 * lazy groups, anchored at both ends). Throws when `expected` is not such a redaction of `text`.
 */
export function goldSpans(text: string, expected: string): LabelledSpan[] {
  const kinds: TPiiKind[] = [];
  const literals: string[] = [];
  let at = 0;
  for (const match of expected.matchAll(MARKER)) {
    literals.push(expected.slice(at, match.index));
    kinds.push(KIND_OF_MARKER.get(match[0])!);
    at = match.index + match[0].length;
  }
  literals.push(expected.slice(at));
  const pattern = new RegExp(`^${literals.map(escapeRegExp).join('(.+?)')}$`, 'sd');
  const match = pattern.exec(text);
  if (!match) throw new Error(`expected is not a redaction of text: ${JSON.stringify(expected)}`);
  return kinds.map((kind, index) => ({ kind, start: match.indices![index + 1]![0], end: match.indices![index + 1]![1] }));
}
