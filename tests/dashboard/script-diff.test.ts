import { describe, expect, it } from 'vitest';
import type { TQuestion } from '../../shared/schemas/scripts.js';
import { describeDiff, diffScripts, isEmptyDiff, type VersionContent } from '../../web/dashboard/src/views/studies/script-diff.js';

/**
 * The dashboard's "what changed" between two script versions (web/dashboard/src/views/studies/
 * script-diff.ts): questions matched by id, moves judged by relative order, changes by field.
 */
function q(id: string, order: number, extra: Partial<TQuestion> = {}): TQuestion {
  return { id, text: `Question ${id}?`, type: 'open', required: true, order, ...extra };
}

function version(n: number, questions: TQuestion[], extra: Partial<VersionContent> = {}): VersionContent {
  return { version: n, systemPrompt: 'Be kind.', questions, settings: {}, ...extra };
}

describe('script diff', () => {
  it('two identical versions have no changes', () => {
    const questions = [q('a', 1), q('b', 2)];
    const diff = diffScripts(version(1, questions), version(2, questions));
    expect(isEmptyDiff(diff)).toBe(true);
    expect(describeDiff(diff)).toEqual([]);
  });

  it('a question added in front moves nothing; one removed is reported with its old position', () => {
    const diff = diffScripts(version(1, [q('a', 1), q('b', 2), q('c', 3)]), version(2, [q('new', 1), q('a', 2), q('c', 3)]));
    expect(diff.questions).toEqual([
      { kind: 'added', id: 'new', text: 'Question new?', position: 1 },
      { kind: 'removed', id: 'b', text: 'Question b?', position: 2 },
    ]);
    expect(describeDiff(diff)).toEqual(['Question “Question new?” (new) added at position 1.', 'Question “Question b?” (b) removed (it was at position 2).']);
  });

  it('a question moved to the front is the one reported as moved', () => {
    const diff = diffScripts(version(1, [q('a', 1), q('b', 2), q('c', 3)]), version(2, [q('c', 1), q('a', 2), q('b', 3)]));
    expect(diff.questions).toEqual([{ kind: 'moved', id: 'c', text: 'Question c?', from: 3, to: 1 }]);
  });

  it('orders by the order field, not the array order', () => {
    const diff = diffScripts(version(1, [q('b', 2), q('a', 1)]), version(2, [q('a', 1), q('b', 2)]));
    expect(isEmptyDiff(diff)).toBe(true);
  });

  it('names each changed field of a question, scale and follow-up keys one by one', () => {
    const before = q('r', 1, { type: 'rating', scale: { min: 1, max: 5 }, followUp: { depth: 'low' } });
    const after = q('r', 1, {
      type: 'rating',
      text: 'How likely are you to recommend us?',
      scale: { min: 0, max: 10, maxLabel: 'Very likely' },
      followUp: { depth: 'deep', prompt: 'Ask why' },
    });
    const diff = diffScripts(version(1, [before]), version(2, [after]));
    expect(diff.questions).toEqual([
      {
        kind: 'changed',
        id: 'r',
        text: 'How likely are you to recommend us?',
        position: 1,
        fields: [
          { field: 'text', from: 'Question r?', to: 'How likely are you to recommend us?' },
          { field: 'scale.max', from: 5, to: 10 },
          { field: 'scale.maxLabel', from: undefined, to: 'Very likely' },
          { field: 'scale.min', from: 1, to: 0 },
          { field: 'followUp.depth', from: 'low', to: 'deep' },
          { field: 'followUp.prompt', from: undefined, to: 'Ask why' },
        ],
      },
    ]);
    expect(describeDiff(diff)[0]).toBe(
      'Question “How likely are you to recommend us?” (r) changed: text from “Question r?” to “How likely are you to recommend us?”; scale maximum from 5 to 10; label of the highest rating from not set to “Very likely”; scale minimum from 1 to 0; follow-up depth from “low” to “deep”; follow-up prompt from not set to “Ask why”.',
    );
  });

  it('reports options, type and a moved question whose content changed too (of two swapped, one is the moved)', () => {
    const diff = diffScripts(
      version(1, [q('a', 1), q('m', 2, { type: 'multiple_choice', options: ['Red', 'Blue'] })]),
      version(2, [q('m', 1, { type: 'multiple_choice', options: ['Red', 'Green'] }), q('a', 2, { type: 'yes_no' })]),
    );
    expect(describeDiff(diff)).toEqual([
      'Question “Question m?” (m) changed: options from “Red”, “Blue” to “Red”, “Green”.',
      'Question “Question a?” (a) moved from position 1 to 2.',
      'Question “Question a?” (a) changed: type from “open” to “yes_no”.',
    ]);
  });

  it('reports a changed system prompt and each changed setting', () => {
    const diff = diffScripts(
      version(1, [q('a', 1)], { settings: { maxFollowUps: 2 } }),
      version(2, [q('a', 1)], { systemPrompt: 'Be brief.', settings: { language: 'nl' } }),
    );
    expect(diff.systemPrompt).toEqual({ from: 'Be kind.', to: 'Be brief.' });
    expect(describeDiff(diff)).toEqual([
      'The system prompt changed.',
      'Setting language from not set to “nl”.',
      'Setting most follow-ups per question from 2 to not set.',
    ]);
  });
});
