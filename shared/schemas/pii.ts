import { z } from 'zod';

/** Every kind of PII the redactor knows, each with its marker. */
export const PII_KINDS = ['email', 'phone', 'card', 'ssn', 'name', 'address'] as const;
export type TPiiKind = (typeof PII_KINDS)[number];

/** What `redact_pii=true` redacts: the spec's four markers, never more (names and addresses are asked for with `redact_kinds`). */
export const SPEC_PII_KINDS = ['email', 'phone', 'card', 'ssn'] as const satisfies readonly TPiiKind[];

/**
 * `redact_kinds`: a comma-separated list of PII kinds to redact (`name,address,email`), beside
 * `redact_pii`. Blanks around the commas are ignored, a repeated kind counts once; an empty value
 * asks for nothing. An unknown kind is a bad query parameter (400 naming `redact_kinds`).
 */
const REDACT_KINDS_DOC = {
  description: `PII kinds to redact, comma-separated, from: ${PII_KINDS.join(', ')}. \`name\` is [NAME REDACTED] (people's names), \`address\` is [ADDRESS REDACTED] (postal addresses, street to city). With \`redact_pii=true\` as well, the union is redacted; \`redact_pii=true\` alone is email, phone, card and ssn.`,
  example: 'name,address,email,phone',
};

export const ZRedactKinds = z
  .string()
  .max(200)
  // On the string as well as on the whole: the REST adapter's document generator reads the inner schema of an optional transform.
  .meta(REDACT_KINDS_DOC)
  .transform((value, ctx): TPiiKind[] => {
    const kinds = value
      .split(',')
      .map((kind) => kind.trim().toLowerCase())
      .filter((kind) => kind !== '');
    const unknown = kinds.filter((kind) => !(PII_KINDS as readonly string[]).includes(kind));
    if (unknown.length > 0) {
      ctx.addIssue({ code: 'custom', message: `must list kinds from: ${PII_KINDS.join(', ')} (unknown: ${unknown.join(', ')})` });
      return z.NEVER;
    }
    return PII_KINDS.filter((kind) => kinds.includes(kind));
  })
  .optional()
  .meta(REDACT_KINDS_DOC);

/** The kinds a request asks to redact: `redact_pii=true` is the spec's four, `redact_kinds` adds its own. Empty: redact nothing. */
export function requestedPiiKinds(query: { redact_pii: boolean; redact_kinds?: TPiiKind[] | undefined }): TPiiKind[] {
  const asked = new Set<TPiiKind>(query.redact_kinds ?? []);
  if (query.redact_pii) for (const kind of SPEC_PII_KINDS) asked.add(kind);
  return PII_KINDS.filter((kind) => asked.has(kind));
}
