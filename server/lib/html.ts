const HTML_ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * Escapes text for HTML content and quoted attributes: these five characters are all both need.
 * (Mustache's own escaper also encodes `/`, `=` and backticks, which turns every link into
 * `https:&#x2F;&#x2F;…`: valid HTML, but spam filters score entity-obfuscated URLs.)
 */
export function escapeHtml(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (character) => HTML_ENTITIES[character]!);
}
