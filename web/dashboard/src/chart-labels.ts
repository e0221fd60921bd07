/**
 * A chart's category label fitted to its column: at most `maxLines` lines of at most `maxChars`
 * characters, broken between words (a word longer than a line is cut), the last line ending in
 * "…" when words are left over. Pure, so the rule is tested without a browser; the chart keeps
 * the full text for pointers (a `<title>`) and screen readers (its description and the table).
 */
export function wrapLabel(text: string, maxChars: number, maxLines = 2): { lines: string[]; truncated: boolean } {
  const width = Math.max(2, Math.floor(maxChars));
  const words = text.trim().split(/\s+/).filter(Boolean);
  const lines: string[] = [];
  let line = '';
  for (let word of words) {
    while (word.length > width) {
      // A word wider than a line: what fits, then the rest on the next line.
      if (line) {
        lines.push(line);
        line = '';
      }
      lines.push(word.slice(0, width));
      word = word.slice(width);
    }
    if (!line) line = word;
    else if (line.length + 1 + word.length <= width) line += ` ${word}`;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line) lines.push(line);
  if (lines.length <= maxLines) return { lines: lines.length > 0 ? lines : [''], truncated: false };
  const kept = lines.slice(0, maxLines);
  const last = kept[maxLines - 1]!;
  kept[maxLines - 1] = `${last.length >= width ? last.slice(0, width - 1) : last}…`;
  return { lines: kept, truncated: true };
}

/**
 * How many characters of a `fontSize` label fit in `width` units, on the safe side: 0.62 em a
 * character is wider than the average of the system sans-serif fonts, so a line rarely needs
 * squeezing (the chart still squeezes one that does, measured in the browser).
 */
export function charsThatFit(width: number, fontSize: number): number {
  return Math.max(4, Math.floor(width / (fontSize * 0.62)));
}
