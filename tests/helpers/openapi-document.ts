import { ERROR_CODES, type ErrorCode } from '../../shared/error-codes.js';

/** The OpenAPI document as JSON (the tests read it as its users' tools do). */
type Json = any;

/** The error codes a response's envelope narrows `code` to. */
export function errorCodesOf(response: Json): string[] | undefined {
  return response?.content?.['application/json']?.schema?.allOf?.[1]?.properties?.error?.properties?.code?.enum;
}

/**
 * An operation's response at a status, a shared one (`$ref` to `components.responses`, as every
 * error response is) followed. A status the operation does not list is its `default` response's
 * when one of the codes that lists has that status; otherwise undefined.
 */
export function responseAt(document: Json, operation: Json, status: string | number): Json {
  const listed = operation.responses?.[String(status)];
  const fallback = listed ? undefined : shared(document, operation.responses?.default);
  if (fallback && (errorCodesOf(fallback) ?? []).some((code) => ERROR_CODES[code as ErrorCode]?.status === Number(status))) return fallback;
  return shared(document, listed);
}

function shared(document: Json, response: Json): Json {
  const ref: unknown = response?.$ref;
  if (typeof ref !== 'string') return response;
  const name = ref.replace('#/components/responses/', '');
  const shared = document.components?.responses?.[name];
  if (!shared) throw new Error(`${ref} is not in components.responses`);
  return shared;
}

/** An operation's parameters, shared ones (`$ref` to `components.parameters`) followed. */
export function parametersOf(document: Json, operation: Json): Json[] {
  return ((operation.parameters ?? []) as Json[]).map((parameter) => {
    const ref: unknown = parameter.$ref;
    if (typeof ref !== 'string') return parameter;
    const shared = document.components?.parameters?.[ref.replace('#/components/parameters/', '')];
    if (!shared) throw new Error(`${ref} is not in components.parameters`);
    return shared;
  });
}

/** Whether an operation answers a Server-Sent Events stream (`GET /v1/event-stream`): it never ends, so request-and-wait tests leave it out. */
export function answersEventStream(operation: Json): boolean {
  return Object.entries(operation.responses ?? {}).some(
    ([status, response]: [string, Json]) => status.startsWith('2') && 'text/event-stream' in (response?.content ?? {}),
  );
}
