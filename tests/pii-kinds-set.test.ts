import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { findPii, redactPii } from '../server/analysis/pii-redaction.js';
import { PII_KINDS, type TPiiKind } from '../shared/schemas/pii.js';
import { goldSpans } from './helpers/pii-spans.js';

/**
 * Names, addresses and the spec's four kinds on a labelled set written blind for issue 30
 * (tests/fixtures/pii-kinds.json, made by tests/fixtures/merge-pii-kinds.mjs from the author's
 * two files): 20 items per interview language in each split. The rules were developed on `dev`;
 * `heldout` was never looked at, its figures are what this test measures.
 *
 * Span-level scoring, every kind asked for (`redact_kinds` with all six): an item's labelled
 * spans are where its `expected` text puts a marker (tests/helpers/pii-spans.ts). A found span is
 * right only when a labelled span has the same kind and exactly the same start and end: the right
 * marker in the right place covering exactly the labelled characters (a title left out of a name,
 * or a city cut off an address, is one miss and one false find). Recall per kind: right / labelled;
 * precision per kind: right / found.
 */

const ZPiiKindsSet = z.object({
  items: z.array(
    z.object({
      id: z.string(),
      language: z.enum(['en', 'nl', 'de', 'fr', 'es']),
      text: z.string(),
      expected: z.string(),
      kinds: z.array(z.enum(PII_KINDS)),
      split: z.enum(['dev', 'heldout']),
    }),
  ),
});

const set = ZPiiKindsSet.parse(JSON.parse(readFileSync(new URL('./fixtures/pii-kinds.json', import.meta.url), 'utf8')));

type Split = 'dev' | 'heldout';
interface KindScore {
  labelled: number;
  found: number;
  right: number;
}

function score(split: Split): { byKind: Record<TPiiKind, KindScore>; items: number; exact: number; problems: string[] } {
  const items = set.items.filter((item) => item.split === split);
  const byKind = Object.fromEntries(PII_KINDS.map((kind) => [kind, { labelled: 0, found: 0, right: 0 }])) as Record<TPiiKind, KindScore>;
  const problems: string[] = [];
  let exact = 0;
  for (const item of items) {
    const labelled = goldSpans(item.text, item.expected);
    const found = findPii(item.text, PII_KINDS);
    const same = (a: { kind: string; start: number; end: number }, b: { kind: string; start: number; end: number }) => a.kind === b.kind && a.start === b.start && a.end === b.end;
    for (const span of labelled) {
      byKind[span.kind].labelled += 1;
      if (found.some((other) => same(span, other))) byKind[span.kind].right += 1;
      else problems.push(`${item.id} missed ${span.kind} ${JSON.stringify(item.text.slice(span.start, span.end))}`);
    }
    for (const span of found) {
      byKind[span.kind].found += 1;
      if (!labelled.some((other) => same(span, other))) problems.push(`${item.id} false ${span.kind} ${JSON.stringify(item.text.slice(span.start, span.end))}`);
    }
    if (redactPii(item.text, PII_KINDS) === item.expected) exact += 1;
  }
  return { byKind, items: items.length, exact, problems };
}

const ratio = (part: number, whole: number) => (whole === 0 ? null : part / whole);
const percent = (value: number | null) => (value === null ? 'n/a' : `${(100 * value).toFixed(1)}%`);

function table(split: Split, result: ReturnType<typeof score>): string {
  const lines = [`PII kinds, ${split}: ${result.items} items, ${result.exact} redacted exactly as labelled (${percent(ratio(result.exact, result.items))})`];
  lines.push('kind     labelled  found  right  recall   precision');
  for (const kind of PII_KINDS) {
    const { labelled, found, right } = result.byKind[kind];
    lines.push(`${kind.padEnd(8)} ${String(labelled).padStart(8)} ${String(found).padStart(6)} ${String(right).padStart(6)}  ${percent(ratio(right, labelled)).padStart(7)}  ${percent(ratio(right, found)).padStart(9)}`);
  }
  return lines.join('\n');
}

/** Floors a little under the measured figures (see the README), per kind with at least 5 labelled spans in the split. */
const FLOORS: Record<Split, Partial<Record<TPiiKind, { recall: number; precision: number }>>> = {
  dev: {
    name: { recall: 0.95, precision: 0.95 },
    address: { recall: 0.95, precision: 0.95 },
    phone: { recall: 0.95, precision: 0.95 },
    email: { recall: 0.95, precision: 0.95 },
  },
  // Measured once, the first time the held-out split was scored (name 85.0% / 97.1%, address 87.1% / 87.1%, phone 90.0% / 100%, email 100% / 100%).
  heldout: {
    name: { recall: 0.82, precision: 0.93 },
    address: { recall: 0.84, precision: 0.84 },
    phone: { recall: 0.85, precision: 0.95 },
    email: { recall: 0.95, precision: 0.95 },
  },
};

describe('PII kinds on the blind labelled set (names, addresses and the four spec kinds)', () => {
  // Fixture sanity, not a claim about the method.
  it('has both splits, 20 items per language in each, names and addresses labelled in each, and items without PII', () => {
    for (const split of ['dev', 'heldout'] as const) {
      const items = set.items.filter((item) => item.split === split);
      for (const language of ['en', 'nl', 'de', 'fr', 'es'] as const) expect(items.filter((item) => item.language === language).length, `${split} ${language}`).toBeGreaterThanOrEqual(20);
      expect(items.filter((item) => item.kinds.includes('name')).length).toBeGreaterThanOrEqual(20);
      expect(items.filter((item) => item.kinds.includes('address')).length).toBeGreaterThanOrEqual(15);
      expect(items.filter((item) => item.kinds.length === 0).length).toBeGreaterThanOrEqual(10);
      // Every item's expected text is its text with markers in place of spans, its kinds those of its markers.
      for (const item of items) expect([...new Set(goldSpans(item.text, item.expected).map((span) => span.kind))].sort(), item.id).toEqual([...item.kinds].sort());
    }
  });

  for (const split of ['dev', 'heldout'] as const) {
    it(`${split}: recall and precision per kind at or above their floors`, () => {
      const result = score(split);
      console.log(table(split, result));
      // Only dev's misses are printed: the held-out items are not read by whoever tunes the rules.
      if (split === 'dev' && result.problems.length > 0) console.log(result.problems.join('\n'));
      for (const [kind, floor] of Object.entries(FLOORS[split]) as [TPiiKind, { recall: number; precision: number }][]) {
        const { labelled, found, right } = result.byKind[kind];
        expect(ratio(right, labelled), `${kind} recall`).toBeGreaterThanOrEqual(floor.recall);
        expect(ratio(right, found) ?? 1, `${kind} precision`).toBeGreaterThanOrEqual(floor.precision);
      }
    });
  }
});
