/** `#rgb` or `#rrggbb` as `#rrggbb` (lower case); null for anything else (theme colours from a query or the SDK). */
export function normalizeHex(colour: string | null | undefined): string | null {
  if (typeof colour !== 'string') return null;
  const match = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(colour.trim());
  if (!match) return null;
  const digits = match[1]!.toLowerCase();
  return digits.length === 3 ? `#${[...digits].map((digit) => digit + digit).join('')}` : `#${digits}`;
}
