import { PII_KINDS } from '../../../shared/schemas/pii.js';
import { PII_MARKERS, redactPii, SessionRedactor } from '../../analysis/pii-redaction.js';
import { escapeRegExp } from '../../lib/escape-reg-exp.js';
import { rawSql } from '../../db/sql.js';

const NAME_MARKER = PII_MARKERS.name;
const VALUE_MARKER = '[REDACTED]';

/** Who the participant is, as the session and its invite know them. */
export interface ParticipantIdentity {
  emails: (string | null)[];
  names: (string | null)[];
  /** Invite metadata: a customer's own ids, company names and the like. */
  metadataValues: unknown[];
}

function wholeWord(term: string): RegExp {
  return new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(term)}(?![\\p{L}\\p{N}])`, 'giu');
}

/**
 * Text of one session made anonymous: the PII redactor first with every kind it knows (emails,
 * phones, cards, SSNs, and the names of people and postal addresses the participant mentions,
 * which `redact_pii` alone leaves; every item of the session's words wherever it turns up), then the participant's own identity
 * wherever it appears: their email addresses, their name whole and each part of it, the parts of
 * their email's local part ("ada.lovelace" → "ada", "lovelace": often the name), and the invite's
 * metadata values, each as a whole word regardless of case.
 */
export class IdentityScrubber {
  readonly #redactor: SessionRedactor;
  readonly #terms: { pattern: RegExp; marker: string }[] = [];

  constructor(utteranceTexts: string[], identity: ParticipantIdentity) {
    this.#redactor = new SessionRedactor(utteranceTexts, PII_KINDS);
    const terms = new Map<string, string>();
    const add = (term: string, marker: string, minLength: number) => {
      const clean = term.trim();
      if (clean.length >= minLength && !terms.has(clean.toLowerCase())) terms.set(clean.toLowerCase(), marker);
    };
    for (const email of identity.emails) {
      if (!email) continue;
      add(email, PII_MARKERS.email, 3);
      for (const part of email.slice(0, email.indexOf('@')).split(/[._+-]+/)) add(part, NAME_MARKER, 3);
    }
    for (const name of identity.names) {
      if (!name) continue;
      add(name, NAME_MARKER, 2);
      for (const part of name.split(/[\s,.'’-]+/u)) add(part, NAME_MARKER, 2);
    }
    for (const value of identity.metadataValues) {
      if (typeof value === 'string') add(value, VALUE_MARKER, 3);
      else if (typeof value === 'number' && Math.abs(value) >= 1000) add(String(value), VALUE_MARKER, 4);
    }
    // Longest first: a whole name before its parts, an address before its local part.
    for (const [term, marker] of [...terms].sort((a, b) => b[0].length - a[0].length)) this.#terms.push({ pattern: wholeWord(term), marker });
  }

  #identity(text: string): string {
    let out = text;
    for (const term of this.#terms) out = out.replace(term.pattern, term.marker);
    return out;
  }

  /** An utterance of the session, whole. */
  utterance(text: string): string {
    return this.#identity(this.#redactor.utterance(text));
  }

  /** A piece of text taken from the session's words (a parsed answer). */
  piece(text: string): string {
    return this.#identity(this.#redactor.piece(text));
  }

  /** An utterance's keywords: those touching PII or the participant's identity are left out. */
  keywords(utteranceText: string, keywords: string[]): string[] {
    return this.#redactor.keywords(utteranceText, keywords).filter((keyword) => this.#identity(keyword) === keyword);
  }
}

/** The identity columns of a session row (`s`, sessions) and its invite (`i`) that `sessionScrubber` reads. */
export const IDENTITY_COLUMNS = rawSql(
  's.participant_email, s.participant_name, s.metadata, i.email as invite_email, i.name as invite_name, i.metadata as invite_metadata',
);

/** A row selected with IDENTITY_COLUMNS. */
export interface IdentityRow {
  participant_email: string | null;
  participant_name: string | null;
  metadata: Record<string, unknown> | null;
  invite_email: string | null;
  invite_name: string | null;
  invite_metadata: Record<string, unknown> | null;
}

/** How a session's scrubber treats its invite metadata. */
export interface ScrubberOptions {
  /**
   * Whether a metadata entry (key and value as text) is held by two participants or more of the
   * session's campaign. Such a value (a team, a plan, a country) identifies nobody, so it is kept
   * in the text unless the PII redactor finds PII in it; a value held by one participant is
   * scrubbed. Without it every metadata value is scrubbed (anonymized exports).
   */
  sharedMetadata?: (key: string, value: string) => boolean;
}

/** A metadata value as it can turn up in words: text, or a number long enough to be an id; anything else is never scrubbed. */
function metadataText(value: unknown): string | null {
  if (typeof value === 'string') return value;
  return typeof value === 'number' ? String(value) : null;
}

/**
 * The scrubber of one session: the PII redactor with every kind it knows over the session's
 * words (`texts`), then the participant's own identity (email, name and its parts, metadata
 * values of the session and the invite) wherever it appears. Anonymized exports and stakeholder
 * links with PII redacted both use it, so they hide the same things; stakeholder links pass
 * `sharedMetadata` to keep the segment values several participants hold.
 */
export function sessionScrubber(row: IdentityRow, texts: string[], options: ScrubberOptions = {}): IdentityScrubber {
  const { sharedMetadata } = options;
  const identifying = ([key, value]: [string, unknown]) => {
    const text = metadataText(value);
    return text === null || !sharedMetadata || !sharedMetadata(key, text) || redactPii(text, PII_KINDS) !== text;
  };
  const metadata = [...Object.entries(row.metadata ?? {}), ...Object.entries(row.invite_metadata ?? {})];
  return new IdentityScrubber(texts, {
    emails: [row.participant_email, row.invite_email],
    names: [row.participant_name, row.invite_name],
    metadataValues: metadata.filter(identifying).map(([, value]) => value),
  });
}
