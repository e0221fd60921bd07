/**
 * Every error code the API can answer with, and its HTTP status. This table is the
 * single source for the REST envelope, the tRPC error data, the OpenAPI document and
 * the error table in docs/api.md.
 */
export const ERROR_CODES = {
  INVALID_REQUEST: {
    status: 400,
    description: 'Body malformed or not a JSON object, a required field missing, or a bad query parameter.',
  },
  INVALID_API_KEY: { status: 401, description: 'API key missing, malformed, unknown, expired or revoked.' },
  INVALID_INVITE_TOKEN: {
    status: 401,
    description: 'The invite token (participant credential) is missing, malformed, unknown or revoked (its invite was cancelled).',
  },
  INVALID_CREDENTIALS: {
    status: 401,
    description: 'Sign-in failed: the email or password is wrong (the same answer whether or not the email has an account).',
  },
  INVALID_ACCESS_TOKEN: {
    status: 401,
    description: "The member's access token is malformed, expired, or its sign-in was ended (signed out, or the member removed); refresh it or sign in again.",
  },
  INVALID_REFRESH_TOKEN: {
    status: 401,
    description: 'The refresh token is unknown, expired or already used; a reused one also ends its sign-in, so sign in again.',
  },
  INSUFFICIENT_CREDITS: { status: 402, description: 'Not enough credits for the action.' },
  TEST_MODE_INTERVIEW_LIMIT: {
    status: 429,
    description:
      'Test mode: the test world has started as many interviews in the last 24 hours as it may (`TEST_MODE_INTERVIEWS_PER_DAY`, 100 by default); test interviews cost no credits, so they are capped.',
  },
  PAYMENT_DECLINED: {
    status: 402,
    description:
      'The payment provider declined the payment (`details.code`, such as `card_declined` or `payment_method_required`, and its reason); nothing was booked.',
  },
  INSUFFICIENT_PERMISSIONS: { status: 403, description: 'The API key lacks the permission the operation requires.' },
  LIVE_MODE_ONLY: {
    status: 403,
    description: 'Members and the custom domain belong to the live organization: manage them with a live key or on the dashboard, not with a test key.',
  },
  TEST_MODE_ONLY: {
    status: 403,
    description: 'Only a test key (`isk_test_…`) may call this operation: it makes sample data, which belongs in the test world only.',
  },
  INVALID_INVITATION: {
    status: 404,
    description: 'The member invitation link is unknown, already accepted or expired; ask for a new invitation.',
  },
  RESOURCE_NOT_FOUND: {
    status: 404,
    description: 'The resource or route does not exist (or belongs to another organization).',
  },
  METHOD_NOT_ALLOWED: { status: 405, description: 'The path exists but not with this HTTP method (see `Allow`).' },
  CAMPAIGN_NOT_ACTIVE: { status: 409, description: 'The campaign is paused or archived; invites cannot be created.' },
  CAMPAIGN_ARCHIVED: { status: 409, description: 'The campaign is archived (final); it cannot be changed or resumed.' },
  INVITE_EXPIRED: { status: 409, description: 'The invite has expired and cannot be modified.' },
  INVITE_CANCELLED: { status: 409, description: 'The invite was cancelled (its token is revoked); it cannot be resent or used.' },
  INVITE_ALREADY_USED: {
    status: 409,
    description: 'The invite has been used (its interview started or completed); it cannot be resent, cancelled or used again.',
  },
  INVITE_HAS_NO_EMAIL: { status: 409, description: 'The invite has no email address (it came from a share link), so there is nothing to send.' },
  SHARE_LINK_CLOSED: { status: 409, description: 'The share link is closed, expired or has all its respondents.' },
  MEMBER_EXISTS: { status: 409, description: 'The organization already has a member (or an invitation) with this email.' },
  LAST_OWNER: { status: 409, description: 'The organization would be left without an active owner: make another member owner first.' },
  DOMAIN_IN_USE: { status: 409, description: 'Another organization already uses this custom domain.' },
  NAME_TAKEN: {
    status: 409,
    description:
      'The organization already has a collection (or saved search) with this name; names are unique per organization, ignoring case (`details.existingId`).',
  },
  SESSION_NOT_ACTIVE: { status: 409, description: 'The session state does not allow the action.' },
  TURN_ALREADY_ANSWERED: {
    status: 409,
    description: 'The question was answered by another request meanwhile; fetch the current turn (start the interview again) and answer that.',
  },
  RECORDING_NOT_CONSENTED: {
    status: 409,
    description: 'The participant consented to data processing but not to recording: answers must be typed, not recorded.',
  },
  FEEDBACK_ALREADY_SUBMITTED: { status: 409, description: 'The participant already submitted feedback for this interview (once per session).' },
  TRANSCRIPT_NOT_READY: {
    status: 409,
    description:
      'The session has no transcript: `details.status` is `pending` while the session is unfinished or its transcript is being made (retry later), `none` when it will never have one (`details.reason`: `no_answers` or `too_little_speech`).',
  },
  INSIGHTS_NOT_READY: {
    status: 409,
    description:
      'The session has no insights: `details.status` is `pending` while they are being made (retry later), `none` when the session has no transcript to draw them from.',
  },
  WEBHOOK_ENDPOINT_DISABLED: {
    status: 409,
    description: 'The webhook endpoint is disabled (by an update, or because it answered 410 Gone); enable it (`status: enabled`) to send to it.',
  },
  WEBHOOK_DELIVERY_PENDING: {
    status: 409,
    description: 'The delivery is still being attempted; only a finished (succeeded or failed) delivery can be redelivered.',
  },
  CAMPAIGN_HAS_ACTIVE_SESSIONS: {
    status: 409,
    description: 'The campaign has interviews in progress; it cannot be deleted until they end (archive it instead).',
  },
  SCRIPT_NOT_PUBLISHED: {
    status: 409,
    description: 'The script has no published version yet, so a campaign cannot use it.',
  },
  SCRIPT_ARCHIVED: { status: 409, description: 'The script is archived: it cannot be edited, published, given media or used by a campaign.' },
  SCRIPT_IN_USE: { status: 409, description: 'The script is used by an active or paused campaign and cannot be deleted.' },
  IDEMPOTENCY_KEY_IN_USE: {
    status: 409,
    description: 'A request with the same `Idempotency-Key` is still being processed; retry after it finishes to get its response.',
  },
  TRANSCRIPT_CHANGED: {
    status: 409,
    description:
      "The utterance's text at the given offsets is no longer the `expectedText` the request was made from (changed meanwhile, or a retry of a redaction that already happened); read the transcript again (`details.current` says where that text is now, or null).",
  },
  STAKEHOLDER_LINK_GONE: {
    status: 410,
    description:
      'The stakeholder link was revoked or has expired, or what it shared was deleted (`details.reason`: `revoked`, `expired` or `removed`); ask whoever shared it for a new link.',
  },
  REQUEST_TIMEOUT: { status: 408, description: 'The client did not send the whole request in time; the connection is closed.' },
  PRECONDITION_FAILED: {
    status: 412,
    description:
      '`If-Match` names another version of the record than the current one (its `ETag`): someone changed it since you read it. Read it again, then retry.',
  },
  PAYLOAD_TOO_LARGE: { status: 413, description: 'The request body or uploaded file exceeds its size limit.' },
  UNSUPPORTED_MEDIA_TYPE: {
    status: 415,
    description: 'The request body is not in a format the operation takes: JSON (`Content-Type: application/json`), or multipart for uploads.',
  },
  VALIDATION_ERROR: { status: 422, description: 'One or more present fields failed validation (see `details.fields`).' },
  EXPORT_TOO_LARGE: {
    status: 422,
    description: 'A ZIP with audio holds at most 500 sessions; export per campaign, or without audio (`include_audio=false`).',
  },
  IDEMPOTENCY_KEY_REUSED: {
    status: 422,
    description: 'The `Idempotency-Key` was already used (in the last 24 hours) for a different request: another method, path or body.',
  },
  RATE_LIMITED: {
    status: 429,
    description: 'Too many requests for this API key this minute; `retryAfter` and `Retry-After` say when to retry.',
  },
  TOO_MANY_SIGN_IN_ATTEMPTS: {
    status: 429,
    description: 'Too many failed sign-ins for this email or from this address; `retryAfter` and `Retry-After` say when to try again.',
  },
  REQUEST_HEADERS_TOO_LARGE: { status: 431, description: "The request line or headers exceed the server's limit (16 KB)." },
  INTERNAL_ERROR: { status: 500, description: 'Unexpected server error. Safe to retry with backoff.' },
  PAYMENT_PROVIDER_UNAVAILABLE: {
    status: 502,
    description: 'The payment provider could not be reached or failed; nothing was booked. Retry with the same `Idempotency-Key`.',
  },
  SERVICE_UNAVAILABLE: {
    status: 503,
    description: 'Temporary outage: the database is unreachable or starting, or the request took longer than the timeout. Retry after `Retry-After` seconds.',
  },
} as const satisfies Record<string, { status: number; description: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

export const ERROR_CODE_LIST = Object.keys(ERROR_CODES) as ErrorCode[];

/** One offending field: `path` uses dots for objects and `[i]` for array items, e.g. `questions[2].options`. */
export interface FieldError {
  path: string;
  message: string;
}

export interface ErrorBody {
  error: {
    code: ErrorCode;
    message: string;
    details: Record<string, unknown>;
    /** Only on RATE_LIMITED: seconds until the current window ends. */
    retryAfter?: number;
    /** The request's id (also its `X-Request-Id` header): quote it to support. */
    requestId?: string;
  };
}
