import { validationError } from '../../errors.js';
import { assertPublicHttpsUrl, type OutboundPolicy, OutboundRefusedError } from '../../lib/outbound-http.js';

const REFUSALS: Record<OutboundRefusedError['reason'], string> = {
  invalid_url: 'must be a valid URL',
  not_https: 'must be an https:// URL',
  credentials_in_url: 'must not carry a user name or password',
  private_address: 'must not be or resolve to a loopback, private, link-local or reserved address',
  dns_failure: 'must be a host name that resolves',
};

/**
 * design.md's rule at creation (and at every delivery, by the outbound client): HTTPS only, no
 * user name or password (they would be shown back and logged), and no host that is or resolves to
 * a private address (decimal, octal, hex and bracketed forms, IPv4-mapped IPv6, every DNS answer),
 * unless WEBHOOK_ALLOW_HOSTS lists it. 422 on `url`.
 *
 * Answers the URL as parsed (WHATWG: `\` read as `/`, case, default port, dot segments, percent-
 * encoding normalised): that form is what is judged, stored, shown and connected to, so the text a
 * customer or an operator reads is never another URL than the one delivered to.
 */
export async function deliverableUrl(url: string, policy: OutboundPolicy): Promise<string> {
  try {
    return (await assertPublicHttpsUrl(url, policy)).href;
  } catch (error) {
    if (error instanceof OutboundRefusedError) throw validationError([{ path: 'url', message: REFUSALS[error.reason] }]);
    throw error;
  }
}
