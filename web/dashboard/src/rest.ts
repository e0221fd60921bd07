import type { ProblemInfo } from './trpc';

/** A failed plain REST call (`/v1/...`): the envelope's message, code and fields, read like a tRPC error's. */
export class RestError extends Error {
  constructor(readonly problem: ProblemInfo) {
    super(problem.message);
    this.name = 'RestError';
  }
}

/**
 * A plain REST call with the member's access token: what tRPC cannot carry (multipart uploads).
 * Answers the JSON body; a non-2xx answer throws a RestError with the envelope's fields.
 */
export async function restCall<T>(accessToken: () => Promise<string | undefined>, path: string, init: RequestInit): Promise<T> {
  const token = await accessToken();
  const headers = new Headers(init.headers);
  if (token) headers.set('Authorization', `Bearer ${token}`);
  const response = await fetch(path, { ...init, headers });
  const body: unknown = await response.json().catch(() => undefined);
  if (!response.ok) {
    const error = (body as { error?: { code?: string; message?: string; details?: Record<string, unknown> } } | undefined)?.error;
    const details = error?.details ?? {};
    const fields = Array.isArray(details.fields) ? (details.fields as { path: string; message: string }[]) : [];
    throw new RestError({
      message: error?.message ?? `The server answered ${response.status}.`,
      appCode: error?.code,
      httpStatus: response.status,
      fields,
      details,
    });
  }
  return body as T;
}
