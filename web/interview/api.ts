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

type ErrorBody = { error?: { code?: string; message?: string } };

/**
 * A failure that may pass on its own, worth the same request again: 429, 5xx, and 409
 * IDEMPOTENCY_KEY_IN_USE (the lost attempt is still running on the server, a long transcription
 * perhaps; its answer is kept for this key).
 */
async function passing(response: Response): Promise<boolean> {
  if (response.status === 429 || response.status >= 500) return true;
  if (response.status !== 409) return false;
  const body = (await response
    .clone()
    .json()
    .catch(() => null)) as ErrorBody | null;
  return body?.error?.code === 'IDEMPOTENCY_KEY_IN_USE';
}

export interface PendingCall<T> {
  run(): Promise<T>;
}

export class ParticipantApi {
  constructor(private readonly token: string) {}

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
      if (response !== undefined && !(await passing(response))) return this.read<T>(response);
      if (attempt >= RETRY_DELAYS_MS.length) {
        if (response === undefined) throw new ConnectionLost('The connection was lost.');
        return this.read<T>(response);
      }
      const retryAfter = Number(response?.headers.get('Retry-After'));
      await sleep(Number.isFinite(retryAfter) && retryAfter > 0 ? Math.min(retryAfter * 1000, MAX_RETRY_AFTER_MS) : RETRY_DELAYS_MS[attempt]!);
    }
  }

  private async read<T>(response: Response): Promise<T> {
    const passingFailure = await passing(response);
    const body = (await response.json().catch(() => null)) as ErrorBody | null;
    if (response.ok) return body as T;
    // Still failing after every retry: not a refusal; "Try again" sends the same key, and gets its answer.
    if (passingFailure) throw new ConnectionLost(body?.error?.message ?? `The service answered ${response.status}.`);
    throw new ApiError(response.status, body?.error?.code ?? 'UNKNOWN', body?.error?.message ?? `The service answered ${response.status}.`);
  }
}
