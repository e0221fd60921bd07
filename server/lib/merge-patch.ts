function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * JSON Merge Patch (RFC 7386), the rule for every settings-like object in updates: keys merge,
 * nested objects merge recursively, `null` removes a key, arrays and scalars replace.
 */
export function applyMergePatch<T extends object>(current: T, patch: object): T {
  const merged: Record<string, unknown> = { ...(current as Record<string, unknown>) };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete merged[key];
    else if (value === undefined) continue;
    // A patch object applies to what is there, or to nothing (RFC 7396): its nulls never get stored.
    else if (isPlainObject(value)) merged[key] = applyMergePatch(isPlainObject(merged[key]) ? (merged[key] as Record<string, unknown>) : {}, value);
    else merged[key] = value;
  }
  return merged as T;
}
