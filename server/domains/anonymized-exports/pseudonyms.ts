/**
 * Pseudonyms of one export: `session_1`, `participant_1`, `campaign_1`… in order of first use,
 * the same input always the same pseudonym within the file. Nothing links them to the real ids
 * but this map, which lives only while the file is written.
 */
export class Pseudonyms {
  readonly #known = new Map<string, string>();
  readonly #counts = new Map<string, number>();

  of(kind: 'campaign' | 'session' | 'participant', key: string): string {
    const known = this.#known.get(`${kind}\u0000${key}`);
    if (known) return known;
    const next = (this.#counts.get(kind) ?? 0) + 1;
    this.#counts.set(kind, next);
    const pseudonym = `${kind}_${next}`;
    this.#known.set(`${kind}\u0000${key}`, pseudonym);
    return pseudonym;
  }
}
