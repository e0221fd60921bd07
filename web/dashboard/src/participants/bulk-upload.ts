import type { z } from 'zod';
import type { ZBulkInviteItem } from '../../../../shared/schemas/invites';
import { batchesOf, batchIdempotencyKey } from './csv-invites';

/** A refusal of the REST API, in the shape the error notes show (message, code, fields at fault). */
export class RestProblem extends Error {
  constructor(
    message: string,
    readonly appCode: string | undefined,
    readonly httpStatus: number,
    readonly details: Record<string, unknown>,
  ) {
    super(message);
  }
}

export interface UploadProgress {
  /** Batches answered so far (created or replayed). */
  done: number;
  total: number;
  /** Invites the answered batches hold. */
  invited: number;
  /** Batches answered from the server's stored result: sent before (a retry), nobody invited twice. */
  replayed: number;
}

/**
 * Sends the invites in batches of the bulk limit, one after another, each to
 * `POST /v1/campaigns/{id}/invites/bulk` with an `Idempotency-Key` made of the campaign and the
 * batch's content. The tRPC route has no idempotency: the REST one stores each answer 24 hours,
 * so sending a batch again (the answer was lost, the researcher retries, the same file is chosen
 * again) replays the first answer rather than inviting the same people twice. Stops at the first
 * refusal; `startAt` resumes there.
 */
export async function uploadInvites({
  campaignId,
  items,
  sendEmail,
  accessToken,
  onProgress,
  startAt = 0,
}: {
  campaignId: string;
  items: z.input<typeof ZBulkInviteItem>[];
  sendEmail: boolean;
  accessToken: () => Promise<string | undefined>;
  onProgress: (progress: UploadProgress) => void;
  startAt?: number;
}): Promise<UploadProgress> {
  const batches = batchesOf(items);
  const progress: UploadProgress = {
    done: startAt,
    total: batches.length,
    invited: batches.slice(0, startAt).reduce((sum, batch) => sum + batch.length, 0),
    replayed: 0,
  };
  onProgress({ ...progress });
  for (let index = startAt; index < batches.length; index++) {
    const body = { invites: batches[index]!, sendEmail };
    const token = await accessToken();
    const response = await fetch(`/v1/campaigns/${encodeURIComponent(campaignId)}/invites/bulk`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'Idempotency-Key': await batchIdempotencyKey(campaignId, body),
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw await problemOfResponse(response, index);
    if (response.headers.get('Idempotent-Replayed') === 'true') progress.replayed++;
    progress.done = index + 1;
    progress.invited += batches[index]!.length;
    onProgress({ ...progress });
  }
  return progress;
}

async function problemOfResponse(response: Response, batchIndex: number): Promise<RestProblem> {
  const body = (await response.json().catch(() => null)) as { error?: { code?: string; message?: string; details?: Record<string, unknown> } } | null;
  const error = body?.error;
  return new RestProblem(`Batch ${batchIndex + 1} was refused: ${error?.message ?? `the server answered ${response.status}`}`, error?.code, response.status, {
    ...(error?.details ?? {}),
    batchIndex,
  });
}
