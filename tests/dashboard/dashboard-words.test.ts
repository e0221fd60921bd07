import { describe, expect, it } from 'vitest';
import { countOf } from '../../web/dashboard/src/words.js';

describe('countOf: a count with its noun in the right number', () => {
  it('one is singular; zero and more are plural', () => {
    expect(countOf(1, 'session')).toBe('1 session');
    expect(countOf(0, 'session')).toBe('0 sessions');
    expect(countOf(2, 'row')).toBe('2 rows');
  });

  it('takes an irregular plural', () => {
    expect(countOf(3, 'address', 'addresses')).toBe('3 addresses');
    expect(countOf(1, 'address', 'addresses')).toBe('1 address');
  });
});
