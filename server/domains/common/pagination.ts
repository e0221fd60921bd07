/** For `$ilike` searches: the user's text matches literally, `%` and `_` included. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}
