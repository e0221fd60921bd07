/**
 * The participant API as the page calls it: the invite token as bearer, and every POST under an
 * Idempotency-Key kept across its retries, so an answer retried after a lost response is never
 * taken twice. Network failures, 429 and 5xx are retried with growing pauses (Retry-After when
 * the server gives one); what is still failing after that is a `ConnectionLost` for the page to
 * show, with the same key kept for the participant's own "Try again".
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export class ConnectionLost extends Error {}

const RETRY_DELAYS_MS = [500, 1000, 2000, 4000];
const MAX_RETRY_AFTER_MS = 15_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function newKey(): string {
  return typeof crypto.randomUUID === 'function' ? crypto.randomUUID() : `${Date.now()}-${Math.random().toString(36).slice(2)}`;
}

export interface PendingCall<T> {
  run(): Promise<T>;
}

export class ParticipantApi {
  constructor(
    private readonly token: string,
    private readonly retryDelaysMs: readonly number[] = RETRY_DELAYS_MS,
  ) {}

  /**
   * A POST that can be run again with the same Idempotency-Key (the page's "Try again" after a
   * ConnectionLost): the server answers a repeat with the stored answer.
   */
  post<T>(path: string, body?: Record<string, unknown> | FormData): PendingCall<T> {
    const key = newKey();
    return { run: () => this.send<T>(path, body, key) };
  }

  private async send<T>(path: string, body: Record<string, unknown> | FormData | undefined, idempotencyKey: string): Promise<T> {
    const headers: Record<string, string> = { Authorization: `Bearer ${this.token}`, 'Idempotency-Key': idempotencyKey };
    if (!(body instanceof FormData)) headers['Content-Type'] = 'application/json';
    const payload = body instanceof FormData ? body : JSON.stringify(body ?? {});
    for (let attempt = 0; ; attempt++) {
      let response: Response | undefined;
      try {
        response = await fetch(path, { method: 'POST', headers, body: payload, credentials: 'omit', cache: 'no-store' });
      } catch {
        response = undefined;
      }
      // IDEMPOTENCY_KEY_IN_USE: the lost attempt is still running on the server; its answer is kept for this key.
      const inFlight = response?.status === 409 && response.headers.get('Retry-After') !== null;
      const retryable = response === undefined || response.status === 429 || response.status >= 500 || inFlight;
      if (!retryable) return this.read<T>(response!);
      if (attempt >= this.retryDelaysMs.length) {
        if (response === undefined) throw new ConnectionLost('The connection was lost.');
        return this.read<T>(response);
      }
      const retryAfter = Number(response?.headers.get('Retry-After'));
      await sleep(Number.isFinite(retryAfter) && retryAfter > 0 ? Math.min(retryAfter * 1000, MAX_RETRY_AFTER_MS) : this.retryDelaysMs[attempt]!);
    }
  }

  private async read<T>(response: Response): Promise<T> {
    const body = (await response.json().catch(() => null)) as { error?: { code?: string; message?: string } } | null;
    if (response.ok) return body as T;
    // Still busy after every retry (IDEMPOTENCY_KEY_IN_USE: the first attempt is still running, a
    // long transcription perhaps): not a refusal; "Try again" sends the same key, and gets its answer.
    const inFlight = response.status === 409 && body?.error?.code === 'IDEMPOTENCY_KEY_IN_USE';
    if (response.status >= 500 || response.status === 429 || inFlight) throw new ConnectionLost(body?.error?.message ?? `The service answered ${response.status}.`);
    throw new ApiError(response.status, body?.error?.code ?? 'UNKNOWN', body?.error?.message ?? `The service answered ${response.status}.`);
  }
}
