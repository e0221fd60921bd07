import { describe, expect, it } from 'vitest';
import { followUpLimitOf } from '../../server/domains/sessions/interview-flow.js';
import type { TQuestion } from '../../shared/schemas/scripts.js';
import { followUpsOn, questionDraftOf, questionInputOf } from '../../web/dashboard/src/views/studies/script-form.js';

/**
 * The study builder's "Ask follow-up questions about the answer" box says what the interview
 * does. It showed ticked on every new rating, yes/no and multiple-choice question, with "What to
 * probe for" under it, while the API allows a structured question no follow-up unless it says so
 * (`enabled`, a depth or its own maximum): the prompt written there was never asked.
 */
const TYPES = ['open', 'rating', 'yes_no', 'multiple_choice'] as const;

function question(type: (typeof TYPES)[number], followUp: TQuestion['followUp']): TQuestion {
  return {
    id: 'q1',
    text: 'How likely are you to recommend us?',
    type,
    required: true,
    order: 1,
    ...(type === 'rating' ? { scale: { min: 0, max: 10 } } : {}),
    ...(type === 'multiple_choice' ? { options: ['Email', 'Phone'] } : {}),
    ...(followUp ? { followUp } : {}),
  } as TQuestion;
}

describe('the follow-up box of a question in the study builder', () => {
  it('is ticked exactly where the API allows the question a follow-up (the script sets no maximum)', () => {
    const cases: string[] = [];
    for (const type of TYPES) {
      for (const enabled of [undefined, true, false]) {
        for (const depth of [undefined, 'low', 'deep'] as const) {
          for (const maxFollowUps of [undefined, 2]) {
            for (const prompt of [undefined, 'What made you choose that?']) {
              const followUp = Object.fromEntries(Object.entries({ enabled, depth, maxFollowUps, prompt }).filter(([, value]) => value !== undefined));
              const subject = question(type, Object.keys(followUp).length > 0 ? (followUp as TQuestion['followUp']) : undefined);
              const shown = followUpsOn(questionDraftOf(subject));
              const allowed = followUpLimitOf(subject, {}) > 0;
              if (shown !== allowed)
                cases.push(`${type} ${JSON.stringify(followUp)}: box ${shown ? 'ticked' : 'clear'}, API allows ${followUpLimitOf(subject, {})}`);
            }
          }
        }
      }
    }
    expect(cases).toEqual([]);
  });

  it('a new rating question starts clear; ticking it with a prompt sends `enabled`, and the API then asks the prompt', () => {
    const draft = { ...questionDraftOf(question('open', undefined)), type: 'rating' as const };
    expect(followUpsOn(draft)).toBe(false);
    const ticked = { ...draft, followUp: { ...draft.followUp, enabled: true, enabledSet: true, prompt: 'What made you choose that?' } };
    expect(followUpsOn(ticked)).toBe(true);
    const input = questionInputOf(ticked);
    expect(input.followUp).toEqual({ enabled: true, prompt: 'What made you choose that?' });
    expect(followUpLimitOf({ ...input, order: 1 } as TQuestion, {})).toBe(1);
  });
});
