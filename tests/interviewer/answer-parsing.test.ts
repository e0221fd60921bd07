import { describe, expect, it } from 'vitest';
import { assessOpenAnswer, parseStructuredAnswer } from '../../server/interviewer/answer-parsing.js';
import { percent, readAnswerFixtures } from '../helpers/answer-fixtures.js';

const fixtures = readAnswerFixtures('answer-parsing.json');

describe('labelled answers', () => {
  it('structured answers: overall accuracy at least 95%, confident wrong values at most 2%', () => {
    const byType = new Map<string, { total: number; correct: number; wrong: number; missed: number }>();
    const misses: string[] = [];
    for (const item of fixtures.structured) {
      const actual = parseStructuredAnswer(item.question, item.text)?.value ?? null;
      const tally = byType.get(item.question.type) ?? { total: 0, correct: 0, wrong: 0, missed: 0 };
      tally.total += 1;
      if (actual === item.expected) {
        tally.correct += 1;
      } else {
        // A wrong value is recorded as the participant's answer; a null only costs a re-ask.
        if (actual === null) tally.missed += 1;
        else tally.wrong += 1;
        misses.push(
          `${actual === null ? 'missed' : 'WRONG '} ${item.id} ${JSON.stringify(item.text)}: expected ${JSON.stringify(item.expected)}, got ${JSON.stringify(actual)}`,
        );
      }
      byType.set(item.question.type, tally);
    }
    const overall = { total: 0, correct: 0, wrong: 0, missed: 0 };
    for (const [type, tally] of byType) {
      console.log(
        `${type}: ${tally.correct}/${tally.total} (${percent(tally.correct, tally.total)}), wrong value ${tally.wrong}, missed (null) ${tally.missed}`,
      );
      overall.total += tally.total;
      overall.correct += tally.correct;
      overall.wrong += tally.wrong;
      overall.missed += tally.missed;
    }
    console.log(
      `overall: ${overall.correct}/${overall.total} (${percent(overall.correct, overall.total)}), wrong value ${overall.wrong}, missed (null) ${overall.missed}`,
    );
    if (misses.length > 0) console.log(misses.join('\n'));

    expect(fixtures.structured.length).toBeGreaterThanOrEqual(200);
    expect(overall.correct / overall.total).toBeGreaterThanOrEqual(0.95);
    expect(overall.wrong).toBeLessThanOrEqual(Math.floor(0.02 * overall.total));
  });

  it('open answers: vagueness accuracy at least 95%', () => {
    const misses = fixtures.open.filter((item) => assessOpenAnswer(item.text).vague !== item.expectedVague);
    const correct = fixtures.open.length - misses.length;
    console.log(`open vagueness: ${correct}/${fixtures.open.length} (${percent(correct, fixtures.open.length)})`);
    for (const item of misses) {
      const { reason } = assessOpenAnswer(item.text);
      console.log(`miss ${item.id} ${JSON.stringify(item.text)}: expected vague=${item.expectedVague}, got reason ${reason}`);
    }
    expect(fixtures.open.length).toBeGreaterThanOrEqual(80);
    expect(correct / fixtures.open.length).toBeGreaterThanOrEqual(0.95);
  });
});

describe('rating rules', () => {
  const oneToTen = { type: 'rating' as const, scale: { min: 1, max: 10 } };
  const value = (question: Parameters<typeof parseStructuredAnswer>[0], text: string) => parseStructuredAnswer(question, text)?.value ?? null;

  it('a rating outside the scale is null', () => {
    expect(value(oneToTen, '11')).toBeNull();
    expect(value(oneToTen, 'zero')).toBeNull();
    expect(value({ type: 'rating' }, '6')).toBeNull();
    expect(value(oneToTen, '10')).toBe(10);
  });

  it('a scale maximum other than the question’s is null rather than rescaled', () => {
    expect(value(oneToTen, '4 out of 5')).toBeNull();
    expect(value(oneToTen, '8 out of 10')).toBe(8);
  });

  it('two different numbers are null, the same number twice is that number', () => {
    expect(value({ type: 'rating' }, 'between 3 and 4')).toBeNull();
    expect(value({ type: 'rating' }, '3 or 4')).toBeNull();
    expect(value({ type: 'rating' }, 'four, yeah four')).toBe(4);
  });

  it('a fraction is null: rounding would choose for the participant', () => {
    expect(value({ type: 'rating' }, 'three and a half')).toBeNull();
    expect(value({ type: 'rating' }, '3.5')).toBeNull();
  });

  it('the scale repeated back is not an answer', () => {
    expect(value(oneToTen, 'on a scale of 1 to 10, a 7')).toBe(7);
    expect(value(oneToTen, '1 to 10')).toBeNull();
  });

  it('numbers that count or name things, negated numbers and bounds are not ratings', () => {
    expect(value({ type: 'rating' }, 'i have 2 kids but i would rate it 4')).toBe(4);
    expect(value({ type: 'rating' }, 'on version 2 it is a three')).toBe(3);
    expect(value({ type: 'rating' }, 'not a 5, more like a 2')).toBe(2);
    expect(value({ type: 'rating' }, 'at least a 4')).toBeNull();
  });

  it('a scale label said in words is its end of the scale; a spoken number wins over it', () => {
    const ease = { type: 'rating' as const, scale: { min: 1, max: 5, minLabel: 'Very difficult', maxLabel: 'Very easy' } };
    expect(value(ease, 'very easy')).toBe(5);
    expect(value(ease, 'easy')).toBeNull();
    expect(value(ease, 'very easy, I would say 4')).toBe(4);
  });
});

describe('yes/no rules', () => {
  const value = (text: string) => parseStructuredAnswer({ type: 'yes_no' }, text)?.value ?? null;

  it('negation turns a positive answer negative', () => {
    expect(value("I don't think so")).toBe(false);
    expect(value('absolutely not')).toBe(false);
  });

  it('uncertainty and both polarities are null', () => {
    expect(value('not sure')).toBeNull();
    expect(value('yes and no')).toBeNull();
    expect(value('I think so but I am not sure')).toBeNull();
  });

  it('a leading particle decides over the clause that elaborates it', () => {
    expect(value("yes, but I didn't like it")).toBe(true);
  });
});

describe('multiple-choice rules', () => {
  const contact = { type: 'multiple_choice' as const, options: ['Email', 'Phone call', 'In-app chat'] };
  const value = (text: string) => parseStructuredAnswer(contact, text)?.value ?? null;

  it('an option number beyond the option count is null', () => {
    expect(value('4')).toBeNull();
    expect(value('option d')).toBeNull();
    expect(value('3')).toBe('In-app chat');
  });

  it('returns the option exactly as written in the script', () => {
    expect(value('IN APP CHAT!')).toBe('In-app chat');
    expect(value('probably the chat')).toBe('In-app chat');
  });

  it('an option set aside by negation or exclusion is not the answer', () => {
    expect(value('not email, the chat')).toBe('In-app chat');
    expect(value('anything but phone')).toBeNull();
  });

  it('a part several options share, or several options, is null', () => {
    expect(parseStructuredAnswer({ type: 'multiple_choice', options: ['Phone call', 'Phone app'] }, 'phone')).toBeNull();
    expect(value('email or chat')).toBeNull();
  });
});

describe('questions and languages', () => {
  it('open questions are never parsed', () => {
    expect(parseStructuredAnswer({ type: 'open' }, 'yes')).toBeNull();
  });

  it('a regional tag uses its language; a language without a lexicon still reads digits', () => {
    expect(parseStructuredAnswer({ type: 'rating' }, 'four out of five', 'en-GB')).toEqual({ value: 4 });
    expect(parseStructuredAnswer({ type: 'rating' }, '4/5', 'ja')).toEqual({ value: 4 });
    expect(parseStructuredAnswer({ type: 'rating' }, 'four', 'ja')).toBeNull();
  });
});

describe('open answer vagueness', () => {
  it('names the reason', () => {
    expect(assessOpenAnswer('  ')).toEqual({ vague: true, reason: 'empty' });
    expect(assessOpenAnswer("um, I don't know")).toEqual({ vague: true, reason: 'non_committal' });
    expect(assessOpenAnswer('price')).toEqual({ vague: true, reason: 'too_short' });
    expect(assessOpenAnswer('The onboarding email links were broken.')).toEqual({ vague: false, reason: null });
  });
});
