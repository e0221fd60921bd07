import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BuiltinAnalyzer } from '../../server/analysis/builtin-analyzer.js';
import { candidatePhrases, rankKeywords } from '../../server/analysis/keywords.js';
import { readSentences } from '../../server/analysis/nlp.js';
import { findPii, redactPii, SessionRedactor } from '../../server/analysis/pii-redaction.js';
import { analyzeSentiment } from '../../server/analysis/sentiment.js';
import { englishSentiment } from '../../server/analysis/sentiment-models.js';
import { sessionSentiment } from '../../server/analysis/session-sentiment.js';
import { SENTIMENTS } from '../../shared/schemas/transcripts.js';

/**
 * The built-in analysis against labelled sets written for it (tests/fixtures), the figures the
 * docs/interviews.md states. The sentiment set has four parts: `dev` (the method was developed on it),
 * `holdout` (looked at once the method stood, then used for a second round of fixes), `test`
 * (written afterwards by someone else, looked at once), `final` (written last, never trained on;
 * looked at by a review that removed rules made from it) and `fresh` (written blind, after the
 * rules and the model were final, by someone who saw neither them nor the other items): `fresh`
 * gives the lexicon method's honest figure. The trained classifier now also trains on `fresh`
 * (and on the blind sets in tests/fixtures/sentiment/); its held-out figures, `final` and the
 * blind held-out sets, are in tests/analysis/sentiment-languages.test.ts.
 */

const ZSentimentSet = z.object({
  items: z.array(
    z.object({
      id: z.string(),
      text: z.string(),
      label: z.enum(SENTIMENTS),
      tags: z.array(z.string()),
      set: z.enum(['dev', 'holdout', 'test', 'final', 'fresh']),
      keyPhrases: z.array(z.string()).optional(),
    }),
  ),
});

const ZPiiSet = z.object({
  items: z.array(
    z.object({
      id: z.string(),
      text: z.string(),
      redacted: z.string(),
      pii: z.array(z.object({ kind: z.enum(['email', 'phone', 'card', 'ssn']), value: z.string() })),
      decoys: z.array(z.string()),
      set: z.literal('test').optional(),
    }),
  ),
});

const sentimentSet = ZSentimentSet.parse(JSON.parse(readFileSync(new URL('../fixtures/sentiment.json', import.meta.url), 'utf8')));
const piiSet = ZPiiSet.parse(JSON.parse(readFileSync(new URL('../fixtures/pii-redaction.json', import.meta.url), 'utf8')));

/** The English classifier on `final`, a little below what it measured (tests/analysis/sentiment-languages.test.ts prints it). */
const ENGLISH_FINAL_FLOOR = 0.86;

const percent = (part: number, whole: number) => `${((100 * part) / whole).toFixed(1)}%`;

function sentimentAccuracy(set: 'dev' | 'holdout' | 'test' | 'final' | 'fresh'): number {
  const items = sentimentSet.items.filter((item) => item.set === set);
  const confusion = new Map<string, number>();
  let correct = 0;
  for (const item of items) {
    const { sentiment } = analyzeSentiment(item.text);
    if (sentiment === item.label) correct += 1;
    const cell = `${item.label}→${sentiment}`;
    confusion.set(cell, (confusion.get(cell) ?? 0) + 1);
  }
  console.log(
    `sentiment ${set}: ${correct}/${items.length} (${percent(correct, items.length)}); ${[...confusion].map(([cell, n]) => `${cell} ${n}`).join(', ')}`,
  );
  return correct / items.length;
}

function classifierAccuracy(set: 'final'): number {
  const items = sentimentSet.items.filter((item) => item.set === set);
  const correct = items.filter((item) => englishSentiment(readSentences(item.text)).sentiment === item.label).length;
  console.log(`sentiment classifier ${set}: ${correct}/${items.length} (${percent(correct, items.length)})`);
  return correct / items.length;
}

describe('sentiment on the labelled set', () => {
  // Fixture sanity, not a claim about the method: the set still holds what the figures below are about.
  it('has enough items of every kind the method must handle', () => {
    expect(sentimentSet.items.length).toBeGreaterThanOrEqual(150);
    for (const tag of ['negation', 'contrast', 'mixed', 'domain']) {
      expect(sentimentSet.items.filter((item) => item.tags.includes(tag)).length, tag).toBeGreaterThanOrEqual(25);
    }
  });

  it('dev set: at least 80% of 3-class labels right', () => {
    expect(sentimentAccuracy('dev')).toBeGreaterThanOrEqual(0.8);
  });

  it('holdout set: at least 77%', () => {
    expect(sentimentAccuracy('holdout')).toBeGreaterThanOrEqual(0.77);
  });

  it('test set (written after the method, looked at once): at least 68%', () => {
    expect(sentimentAccuracy('test')).toBeGreaterThanOrEqual(0.68);
  });

  it('final set (never trained on): at least 63% by the lexicon method alone', () => {
    expect(sentimentAccuracy('final')).toBeGreaterThanOrEqual(0.63);
  });

  it(`the trained classifier the built-in analyzer uses: at least ${ENGLISH_FINAL_FLOOR * 100}% on the final set, which training never sees (tests/analysis/sentiment-languages.test.ts checks the model and its other held-out set)`, () => {
    expect(classifierAccuracy('final')).toBeGreaterThanOrEqual(ENGLISH_FINAL_FLOOR);
  });

  // The classifier now trains on `fresh` (sentiment-training.ts); the lexicon method never did.
  it('the fresh set, written blind after the lexicon method was final: at least 55% by the lexicon method (measured once: 58.7%)', () => {
    expect(sentimentSet.items.filter((item) => item.set === 'fresh').length).toBe(150);
    expect(sentimentAccuracy('fresh')).toBeGreaterThanOrEqual(0.55);
  });

  it('reads negation, contrast and degree as they change the meaning', () => {
    expect(analyzeSentiment('The setup was great.').sentiment).toBe('positive');
    expect(analyzeSentiment('The setup was not great.').sentiment).toBe('negative');
    expect(analyzeSentiment('Not bad at all, no complaints.').sentiment).toBe('positive');
    expect(analyzeSentiment('The design is lovely, but the export keeps crashing.').sentiment).toBe('negative');
    expect(analyzeSentiment('The export keeps crashing, but the design is lovely.').sentiment).toBe('positive');
    expect(analyzeSentiment('We have twelve people on the team.').sentiment).toBe('neutral');
    expect(analyzeSentiment('It took us two weeks to get the data imported.').sentiment).toBe('negative');
    expect(analyzeSentiment('It would be nice if the app did not freeze on every upload.').sentiment).toBe('negative');
    const strong = analyzeSentiment('It is really, really slow.').score;
    const mild = analyzeSentiment('It is a bit slow.').score;
    expect(strong).toBeLessThan(mild);
    expect(mild).toBeLessThan(0);
  });

  it("counts the interviewer's questions as neutral", () => {
    expect(analyzeSentiment('How easy was the setup?', { interviewer: true })).toEqual({ sentiment: 'neutral', score: 0 });
    expect(analyzeSentiment('Why is the export so slow?').sentiment).toBe('negative');
  });

  it("weighs a session's sentiment by how much the participant said", () => {
    const session = sessionSentiment([
      { speaker: 'ai', text: 'How was it?', sentiment: 'positive', score: 0.9 },
      { speaker: 'participant', text: 'yes', sentiment: 'positive', score: 0.9 },
      { speaker: 'participant', text: 'The import failed on every large file and support never answered my tickets.', sentiment: 'negative', score: -0.6 },
    ]);
    expect(session!.overall).toBe('negative');
    expect(session!.score).toBeLessThan(-0.4);
    expect(sessionSentiment([{ speaker: 'ai', text: 'Hello', sentiment: 'neutral', score: 0 }])).toBeNull();
  });

  it('labels a session by its score, never a label beside a score that says otherwise ("negative (0.01)")', () => {
    // A classifier or an LLM may call utterances negative whose scores, weighed together, come to almost nothing.
    for (const sentiment of SENTIMENTS) {
      const session = sessionSentiment([
        { speaker: 'participant', text: 'The reports are what we needed.', sentiment, score: 0.1 },
        { speaker: 'participant', text: 'Setup took an afternoon.', sentiment, score: -0.2 },
      ]);
      expect(session).toEqual({ overall: 'neutral', score: -0.02 });
    }
    expect(sessionSentiment([{ speaker: 'participant', text: 'It was slow at times, mostly fine.', sentiment: 'negative', score: 0.01 }])).toEqual({
      overall: 'neutral',
      score: 0.01,
    });
    // Whatever the utterances: the label is the score's (positive from +0.05, negative from -0.05).
    const labels = {
      positive: (score: number) => score >= 0.05,
      negative: (score: number) => score <= -0.05,
      neutral: (score: number) => Math.abs(score) < 0.05,
    };
    for (let seed = 0; seed < 200; seed++) {
      const utterances = Array.from({ length: 1 + (seed % 5) }, (_, index) => ({
        speaker: 'participant',
        text: 'word '.repeat(1 + ((seed * 7 + index * 3) % 50)),
        sentiment: SENTIMENTS[(seed + index) % 3]!,
        score: Math.round(Math.sin(seed * 13 + index * 5) * 1000) / 1000,
      }));
      const session = sessionSentiment(utterances)!;
      expect(labels[session.overall](session.score), JSON.stringify({ utterances, session })).toBe(true);
    }
  });

  it('labels a session by the weighted mean: the words that carry most of the score win', () => {
    const long = 'The export broke twice this month and nobody told us why it happened.';
    const short = 'Support was lovely.';
    expect(
      sessionSentiment([
        { speaker: 'participant', text: long, sentiment: 'negative', score: -0.7 },
        { speaker: 'participant', text: short, sentiment: 'positive', score: 0.8 },
      ])!.overall,
    ).toBe('negative');
    expect(
      sessionSentiment([
        { speaker: 'participant', text: 'It crashed.', sentiment: 'negative', score: -0.7 },
        { speaker: 'participant', text: 'Support helped.', sentiment: 'positive', score: 0.7 },
      ]),
    ).toEqual({ overall: 'neutral', score: 0 });
  });
});

describe('keywords on the labelled set', () => {
  it("finds at least 80% of the researchers' key phrases exactly, as written in the text", async () => {
    const items = sentimentSet.items.filter((item) => item.keyPhrases);
    const candidates = items.map((item) => readSentences(item.text).flatMap((sentence) => candidatePhrases(sentence.tokens)));
    const keywords = rankKeywords(candidates);
    let expected = 0;
    let found = 0;
    items.forEach((item, index) => {
      const got = keywords[index]!.map((keyword) => keyword.toLowerCase());
      for (const keyword of keywords[index]!) expect(item.text, keyword).toContain(keyword);
      for (const phrase of item.keyPhrases!) {
        expected += 1;
        if (got.includes(phrase.toLowerCase())) found += 1;
      }
    });
    console.log(`key phrases found exactly: ${found}/${expected} (${percent(found, expected)}) over ${items.length} answers`);
    expect(found / expected).toBeGreaterThanOrEqual(0.8);
  });

  it('ranks what the interview keeps coming back to above what is said once', async () => {
    const analysis = await new BuiltinAnalyzer().analyzeTranscript({
      language: 'en',
      utterances: [
        { id: 'u1', speaker: 'participant', text: 'The billing dashboard confused our finance team on day one.', questionId: 'q1' },
        { id: 'u2', speaker: 'participant', text: 'Honestly the billing dashboard is the one screen we use, next to a printer.', questionId: 'q2' },
      ],
    });
    expect(analysis.analyzedBy).toBe('builtin');
    expect(analysis.utterances[1]!.keywords[0]).toBe('billing dashboard');
    expect(analysis.utterances[1]!.keywords).toContain('printer');
  });
});

describe('PII redaction on the labelled set', () => {
  function measure(items: z.infer<typeof ZPiiSet>['items']) {
    let expected = 0;
    let truePositives = 0;
    let falsePositives = 0;
    const problems: string[] = [];
    for (const item of items) {
      const found = findPii(item.text).map((span) => ({ kind: span.kind, value: item.text.slice(span.start, span.end) }));
      for (const pii of item.pii) {
        expected += 1;
        if (found.some((span) => span.kind === pii.kind && span.value === pii.value)) truePositives += 1;
        else problems.push(`missed ${pii.kind} ${JSON.stringify(pii.value)} in ${item.id}`);
      }
      for (const span of found) {
        if (!item.pii.some((pii) => pii.kind === span.kind && pii.value === span.value)) {
          falsePositives += 1;
          problems.push(`false ${span.kind} ${JSON.stringify(span.value)} in ${item.id}`);
        }
      }
    }
    return { expected, recall: truePositives / expected, precision: truePositives / (truePositives + falsePositives), problems };
  }

  // Fixture sanity, not a claim about the method: the set still holds what the figures below are about.
  it('covers every kind, every listed phone region and decoys of every sort', () => {
    const kinds = new Set(piiSet.items.flatMap((item) => item.pii.map((pii) => pii.kind)));
    expect([...kinds].sort()).toEqual(['card', 'email', 'phone', 'ssn']);
    expect(piiSet.items.filter((item) => item.pii.length === 0).length).toBeGreaterThanOrEqual(50);
  });

  for (const [name, items] of [
    ['development set', piiSet.items.filter((item) => item.set !== 'test')],
    ['fresh test set', piiSet.items.filter((item) => item.set === 'test')],
  ] as const) {
    it(`${name}: 100% recall and at least 98% precision`, () => {
      const result = measure(items);
      console.log(
        `PII ${name}: ${items.length} texts, ${result.expected} items, recall ${percent(result.recall, 1)}, precision ${percent(result.precision, 1)}`,
      );
      if (result.problems.length > 0) console.log(result.problems.join('\n'));
      expect(result.recall).toBe(1);
      expect(result.precision).toBeGreaterThanOrEqual(0.98);
    });
  }

  it('replaces each item whole with its marker and leaves the rest of the text as it was', () => {
    for (const item of piiSet.items) expect(redactPii(item.text), item.id).toBe(item.redacted);
  });

  it('uses exactly the spec markers', () => {
    expect(redactPii('Card 4111 1111 1111 1111, SSN 123-45-6789, call +1 (415) 555-2671, mail me at a.b+c@mail.example.org.')).toBe(
      'Card [CARD REDACTED], SSN [SSN REDACTED], call [PHONE REDACTED], mail me at [EMAIL REDACTED].',
    );
    expect(redactPii('Card 4111 1111 1111 1112 failed the check; order 4411-2290-33 shipped on 2024-03-15 for $1,299.99 (v2.3.14).')).toBe(
      'Card 4111 1111 1111 1112 failed the check; order 4411-2290-33 shipped on 2024-03-15 for $1,299.99 (v2.3.14).',
    );
  });

  it('redacts pieces cut from a session by what its whole utterances hold', () => {
    const utterance = 'Reach me at ada.lovelace@example.com or +44 20 7946 0958. My social security number is 512346789.';
    const redactor = new SessionRedactor([utterance, 'The export was slow.']);
    expect(redactor.utterance(utterance)).toBe('Reach me at [EMAIL REDACTED] or [PHONE REDACTED]. My social security number is [SSN REDACTED].');
    // A quote or summary that lost the context, or holds only part of an item.
    expect(redactor.piece('The number was 512346789.')).toBe('The number was [SSN REDACTED].');
    expect(redactor.piece('Call 7946 0958 or write to ada.lovelace.')).toBe('Call [PHONE REDACTED] [PHONE REDACTED] or write to [EMAIL REDACTED].');
    expect(redactor.piece('The export was slow.')).toBe('The export was slow.');
    // Keywords touching an item are left out; the others stay as written.
    expect(redactor.keywords(utterance, ['ada.lovelace', 'example.com', '7946 0958', 'social security number'])).toEqual(['social security number']);
  });
});
