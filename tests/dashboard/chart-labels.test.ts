import { describe, expect, it } from 'vitest';
import { charsThatFit, wrapLabel } from '../../web/dashboard/src/chart-labels.js';

/** The dashboard's chart labels (issue 31: "a comparison chart clips its labels on the left"). */
describe('wrapLabel', () => {
  it('keeps a label that fits on one line as it is', () => {
    expect(wrapLabel('Email', 20)).toEqual({ lines: ['Email'], truncated: false });
  });

  it('wraps a long label between words, never a line longer than the column', () => {
    const label = wrapLabel('In-app chat with history', 12);
    expect(label).toEqual({ lines: ['In-app chat', 'with history'], truncated: false });
  });

  it('ends the last line with "…" when the words do not fit on two lines', () => {
    const label = wrapLabel('Through the in-app chat, which kept my whole history between visits', 12);
    expect(label.truncated).toBe(true);
    expect(label.lines).toHaveLength(2);
    expect(label.lines[1]!.endsWith('…')).toBe(true);
    for (const line of label.lines) expect(line.length).toBeLessThanOrEqual(12);
  });

  it('cuts a single word wider than the column', () => {
    const label = wrapLabel('Supercalifragilisticexpialidocious', 10);
    expect(label.lines.every((line) => line.length <= 10)).toBe(true);
    expect(label.truncated).toBe(true);
  });

  it('budgets characters on the wide side of a 14 px font', () => {
    // 142 units at 14 px: 16 characters of 0.62 em.
    expect(charsThatFit(142, 14)).toBe(16);
  });
});
