import { ERROR_CODES, type ErrorCode, type FieldError } from '../shared/error-codes.js';

/**
 * The one error type of the service. Domain functions, jobs and the CLI throw it and know
 * nothing of HTTP or tRPC; the edges map it: the REST adapter and Express write the envelope
 * (`server/http/error-envelope.ts`), the tRPC error formatter gives `/trpc` clients the same code,
 * status and details (`server/trpc/trpc.ts`). The status comes from the one table in
 * `shared/error-codes.ts`.
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: Record<string, unknown>;
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, message: string, details: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.status = ERROR_CODES[code].status;
    this.details = details;
    this.headers = headers;
  }
}

const RESOURCE_LABELS = {
  organization: 'Organization',
  project: 'Project',
  script: 'Script',
  campaign: 'Campaign',
  apiKey: 'API key',
  media: 'Media file',
  scriptVersion: 'Script version',
  invite: 'Invite',
  shareLink: 'Share link',
  session: 'Session',
  sessionFile: 'Session file',
  webhookEndpoint: 'Webhook endpoint',
  webhookDelivery: 'Webhook delivery',
  event: 'Event',
  member: 'Member',
  invoice: 'Invoice',
  utterance: 'Utterance',
  highlight: 'Highlight',
  comment: 'Comment',
  collection: 'Collection',
  savedSearch: 'Saved search',
  stakeholderLink: 'Stakeholder link',
} as const;

/** 404 for a resource that does not exist or belongs to another organization (never 403). */
export function notFound(resource: keyof typeof RESOURCE_LABELS, id: string | number, fieldPath?: string): AppError {
  const message = `${RESOURCE_LABELS[resource]} ${id} was not found.`;
  const details: Record<string, unknown> = { resource, id };
  if (fieldPath) details.fields = [{ path: fieldPath, message: `no ${RESOURCE_LABELS[resource].toLowerCase()} with this id` }];
  return new AppError('RESOURCE_NOT_FOUND', message, details);
}

export function validationError(fields: FieldError[], message = 'One or more fields failed validation.'): AppError {
  return new AppError('VALIDATION_ERROR', message, { fields });
}
