import { describe, expect, it } from 'vitest';
import { fieldId, isTouched, placeOf, problemWords } from '../../web/dashboard/src/views/studies/script-form.js';

/** The script editor's problem list: places in the editor's words, counted from 1; quiet until touched. */
describe('the script editor problem list', () => {
  it('names a place as the editor labels it, counted from 1', () => {
    expect(placeOf('questions[2].options[0]')).toBe('Question 3, option 1');
    expect(placeOf('questions[2].options')).toBe('Question 3, options');
    expect(placeOf('questions[0].scale.max')).toBe('Question 1, rating scale, highest rating');
    expect(placeOf('systemPrompt')).toBe('System prompt');
    expect(placeOf('settings.maxFollowUps')).toBe('Interview settings, most follow-ups');
  });

  it('says an empty field is empty', () => {
    expect(problemWords('must be at least 1 characters')).toBe('must not be empty');
    expect(problemWords('must be unique')).toBe('must be unique');
  });

  it('a problem counts as touched through its own box or one inside it, not a neighbour', () => {
    const touched = new Set([fieldId('questions[2].options[0]'), fieldId('questions[1].type')]);
    expect(isTouched('questions[2].options[0]', touched)).toBe(true);
    expect(isTouched('questions[2].options', touched)).toBe(true);
    expect(isTouched('questions[2].options[1]', touched)).toBe(false);
    expect(isTouched('questions[1].options', touched)).toBe(false);
    expect(isTouched('questions[10].text', new Set([fieldId('questions[1].text')]))).toBe(false);
  });
});
