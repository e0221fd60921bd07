/** The OpenAPI document as JSON (the tests read it as its users' tools do). */
type Json = any;

/**
 * An operation's response at a status, a shared one (`$ref` to `components.responses`, as every
 * error response is) followed; undefined when the operation does not list the status.
 */
export function responseAt(document: Json, operation: Json, status: string | number): Json {
  const response = operation.responses?.[String(status)];
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
