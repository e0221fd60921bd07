/**
 * Reading an OpenAI-compatible speech provider's failed answer, shared by speech-to-text and
 * text-to-speech: the provider's own reason (operators need it), never a credential, and which
 * kind of failure its status is.
 */

const MAX_DETAIL_LENGTH = 200;

/** The provider's `{error: {message}}` (or `{error}`, `{message}`, `{detail}`), else the start of the body. */
export function providerMessage(body: string): string {
  try {
    const json = JSON.parse(body) as { error?: { message?: unknown } | string; message?: unknown; detail?: unknown };
    if (typeof json.error === 'string') return json.error;
    if (json.error && typeof json.error.message === 'string') return json.error.message;
    if (typeof json.message === 'string') return json.message;
    if (typeof json.detail === 'string') return json.detail;
  } catch {
    // not JSON: the raw text
  }
  return body.replace(/\s+/g, ' ').trim();
}

/** Providers echo (part of) a wrong key back ("Incorrect API key provided: sk-ab***yz"). */
export function scrubProviderText(text: string, apiKey: string | undefined): string {
  let out = text;
  if (apiKey) out = out.split(apiKey).join('[redacted]');
  out = out.replace(/\b(sk|gsk|key|api)[-_][A-Za-z0-9*_-]{6,}/gi, '[redacted]');
  return out.length > MAX_DETAIL_LENGTH ? `${out.slice(0, MAX_DETAIL_LENGTH)}…` : out;
}

/** A failed status as the kind of failure both speech error types name. */
export function providerStatusReason(status: number): 'unauthorized' | 'rate_limited' | 'provider_error' | 'rejected' {
  if (status === 401 || status === 403) return 'unauthorized';
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'provider_error';
  return 'rejected';
}

/** `<service> provider answered 503: <the provider's reason, scrubbed>`. */
export function providerStatusMessage(service: string, status: number, body: string, apiKey: string | undefined): string {
  const detail = scrubProviderText(providerMessage(body), apiKey);
  return `${service} provider answered ${status}${detail ? `: ${detail}` : ''}`;
}
