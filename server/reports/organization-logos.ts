import { outboundRequest, type OutboundPolicy } from '../lib/outbound-http.js';

/** The part of a logger this uses; a pino logger fits. */
interface LogoLogger {
  warn(obj: Record<string, unknown>, msg: string): void;
}

const MAX_LOGO_BYTES = 2 * 1024 * 1024;
const FETCH_TIMEOUT_MS = 3000;
/** A logo changes rarely: fetched at most once an hour per URL and process; a failure is retried after 5 minutes. */
const FRESH_MS = 60 * 60 * 1000;
const RETRY_FAILED_AFTER_MS = 5 * 60 * 1000;
const MAX_CACHED = 200;

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const JPEG = Buffer.from([0xff, 0xd8, 0xff]);

/**
 * Organization logos for branded reports, fetched from the organization's `logo` URL over the
 * SSRF-safe client (a customer-supplied URL must not reach the service's own network). Only PNG
 * and JPEG, recognised from their bytes, are kept: what a PDF can embed. A logo that cannot be
 * had leaves the report without one; it never fails the report.
 */
export class OrganizationLogos {
  readonly #policy: OutboundPolicy;
  readonly #logger: LogoLogger;
  readonly #cache = new Map<string, { logo: Buffer | null; until: number }>();

  constructor(policy: OutboundPolicy, logger: LogoLogger) {
    this.#policy = policy;
    this.#logger = logger;
  }

  async fetch(url: string | null | undefined): Promise<Buffer | null> {
    if (!url) return null;
    const cached = this.#cache.get(url);
    if (cached && cached.until > Date.now()) return cached.logo;
    const logo = await this.#download(url);
    if (this.#cache.size >= MAX_CACHED) this.#cache.delete(this.#cache.keys().next().value!);
    this.#cache.set(url, { logo, until: Date.now() + (logo ? FRESH_MS : RETRY_FAILED_AFTER_MS) });
    return logo;
  }

  async #download(url: string): Promise<Buffer | null> {
    try {
      const response = await outboundRequest({
        url,
        method: 'GET',
        headers: { accept: 'image/png, image/jpeg' },
        timeoutMs: FETCH_TIMEOUT_MS,
        maxResponseBytes: MAX_LOGO_BYTES + 1,
        policy: this.#policy,
      });
      if (response.status !== 200 || response.truncated) {
        this.#logger.warn({ status: response.status, truncated: response.truncated }, 'organization logo not usable; the report has none');
        return null;
      }
      const { body } = response;
      if (!body.subarray(0, PNG.length).equals(PNG) && !body.subarray(0, JPEG.length).equals(JPEG)) {
        this.#logger.warn({ bytes: body.length }, 'organization logo is neither PNG nor JPEG; the report has none');
        return null;
      }
      return body;
    } catch (error) {
      const reason = error && typeof error === 'object' && 'reason' in error ? String(error.reason) : 'unexpected';
      this.#logger.warn({ reason }, 'organization logo could not be fetched; the report has none');
      return null;
    }
  }
}
