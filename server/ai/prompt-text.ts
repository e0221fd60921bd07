/** Text as it goes into a prompt: at most `max` characters, an ellipsis saying where it was cut. */
export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}

/** A BCP 47 tag as prompts state it: its English name and the tag ("French (fr)"), the tag alone when it has no name. */
export function languageName(tag: string): string {
  try {
    const name = new Intl.DisplayNames(['en'], { type: 'language' }).of(tag);
    if (name && name !== tag) return `${name} (${tag})`;
  } catch {
    // An unknown or malformed tag: the tag alone still tells the model something.
  }
  return tag;
}
