/**
 * Credentials and contact data that can hide inside free text (an error message quoting SQL, a
 * URL path): API keys, webhook secrets, invite tokens, members' refresh tokens, invitation links and access tokens, signed file links, share codes in join
 * URLs, email addresses.
 */
const SECRET_PATTERNS: [RegExp, string][] = [
  [/isk_live_[0-9A-Za-z]{20,}/g, 'isk_live_[redacted]'],
  [/isk_test_[0-9A-Za-z]{20,}/g, 'isk_test_[redacted]'],
  // base64url (secrets made before Standard Webhooks signing) and standard base64 (since).
  [/whsec_[0-9A-Za-z_+/=-]{20,}/g, 'whsec_[redacted]'],
  [/\/files\/[0-9A-Za-z_-]+\.[0-9A-Za-z_-]+\.[0-9A-Za-z_-]+/g, '/files/[redacted]'],
  [/inv_[0-9A-Za-z]{43}/g, 'inv_[redacted-token]'],
  [/(rft|mit)_[0-9A-Za-z_-]{43}/g, '$1_[redacted-token]'],
  [/eyJ[0-9A-Za-z_-]+\.eyJ[0-9A-Za-z_-]+\.[0-9A-Za-z_-]+/g, '[redacted-jwt]'],
  [/\/join\/[0-9A-Za-z]{8,}/g, '/join/[redacted]'],
  [/[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g, '[redacted-email]'],
];

export function scrubSecrets(text: string): string {
  let out = text;
  for (const [pattern, replacement] of SECRET_PATTERNS) out = out.replace(pattern, replacement);
  return out;
}

/** Deep copy with every string scrubbed (bounded depth: log objects are small). */
export function scrubValue(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return scrubSecrets(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth > 8) return '[nested too deep to log]';
  if (Array.isArray(value)) return value.map((item) => scrubValue(item, depth + 1));
  if (value instanceof Date) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[key] = scrubValue(item, depth + 1);
  return out;
}
