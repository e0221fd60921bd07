import { describe, expect, it } from 'vitest';
import { assessOpenAnswer, parseStructuredAnswer } from '../../server/interviewer/answer-parsing.js';
import { percent, readAnswerFixtures } from '../helpers/answer-fixtures.js';

/**
 * Answer understanding in Dutch, German, French and Spanish, measured on a labelled set per
 * language (`tests/fixtures/answer-parsing-<lang>.json`, labels written before the lexicon was
 * run on them). English has its own, larger set (answer-parsing.test.ts). The figures printed
 * here are those of docs/interviews.md.
 */
describe.each(['nl', 'de', 'fr', 'es'])('answers in %s', (language) => {
  const fixtures = readAnswerFixtures(`answer-parsing-${language}.json`);

  it('structured answers: at least 90% read right, at most 2% read as a wrong value', () => {
    let correct = 0;
    let wrong = 0;
    const misses: string[] = [];
    for (const item of fixtures.structured) {
      const actual = parseStructuredAnswer(item.question, item.text, language)?.value ?? null;
      if (actual === item.expected) correct += 1;
      else {
        if (actual !== null) wrong += 1;
        misses.push(
          `${actual === null ? 'missed' : 'WRONG '} ${item.id} ${JSON.stringify(item.text)}: expected ${JSON.stringify(item.expected)}, got ${JSON.stringify(actual)}`,
        );
      }
    }
    const total = fixtures.structured.length;
    console.log(`${language} structured: ${correct}/${total} (${percent(correct, total)}), wrong value ${wrong}, missed ${total - correct - wrong}`);
    if (misses.length > 0) console.log(misses.join('\n'));
    expect(total).toBeGreaterThanOrEqual(100);
    expect(correct / total).toBeGreaterThanOrEqual(0.9);
    expect(wrong).toBeLessThanOrEqual(Math.floor(0.02 * total));
  });

  it('open answers: vagueness judged right at least 85% of the time', () => {
    const misses = fixtures.open.filter((item) => assessOpenAnswer(item.text, language).vague !== item.expectedVague);
    const total = fixtures.open.length;
    console.log(`${language} open vagueness: ${total - misses.length}/${total} (${percent(total - misses.length, total)})`);
    for (const item of misses) console.log(`miss ${item.id} ${JSON.stringify(item.text)}: expected vague=${item.expectedVague}`);
    expect(total).toBeGreaterThanOrEqual(30);
    expect((total - misses.length) / total).toBeGreaterThanOrEqual(0.85);
  });
});
