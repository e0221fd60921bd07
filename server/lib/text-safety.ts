import { formatPath } from '../validation-errors.js';

export const MAX_INPUT_DEPTH = 32;

const TOO_DEEP = `must not nest deeper than ${MAX_INPUT_DEPTH} levels`;

export interface UnstorableText {
  path: string;
  message: string;
}

/**
 * PostgreSQL cannot store U+0000 in text or jsonb, and unpaired UTF-16 surrogates are not text at
 * all; `__proto__` keys are dropped by JSON object handling. Rather than fail deep in the
 * database (500) or lose data silently, input containing any of them is refused up front.
 * Returns the first offending place, or undefined.
 */
export function findUnstorableText(value: unknown, path: PropertyKey[] = []): UnstorableText | undefined {
  // No API input nests this deep; refusing it here also keeps every recursive walk after this one bounded.
  if (path.length > MAX_INPUT_DEPTH) return { path: formatPath(path.slice(0, MAX_INPUT_DEPTH)), message: TOO_DEEP };
  if (typeof value === 'string') {
    if (value.includes('\u0000')) return { path: formatPath(path), message: 'must not contain NUL (\\u0000) characters' };
    if (!value.isWellFormed()) return { path: formatPath(path), message: 'must be valid Unicode (no unpaired surrogates)' };
    return undefined;
  }
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index += 1) {
      const found = findUnstorableText(value[index], [...path, index]);
      if (found) return found;
    }
    return undefined;
  }
  if (typeof value === 'object' && value !== null) {
    for (const key of Object.keys(value)) {
      if (key === '__proto__') return { path: formatPath([...path, key]), message: 'is not an allowed key' };
      const keyProblem = findUnstorableText(key, [...path, key]);
      if (keyProblem) return { path: keyProblem.path, message: `key ${keyProblem.message}` };
      const found = findUnstorableText((value as Record<string, unknown>)[key], [...path, key]);
      if (found) return found;
    }
  }
  return undefined;
}

/**
 * Where `value` nests deeper than MAX_INPUT_DEPTH, if it does (the same place and message as
 * `findUnstorableText`). Without recursion, so a body of any depth can be checked before
 * anything recursive (tRPC's request reader, JSON.stringify) touches it.
 */
export function findTooDeep(value: unknown): UnstorableText | undefined {
  interface Step {
    node: object;
    depth: number;
    key: PropertyKey;
    parent: Step | undefined;
  }
  const tooDeep = (at: Step, key: PropertyKey): UnstorableText => {
    const path: PropertyKey[] = [key];
    for (let step: Step | undefined = at; step?.parent; step = step.parent) path.unshift(step.key);
    return { path: formatPath(path.slice(0, MAX_INPUT_DEPTH)), message: TOO_DEEP };
  };
  if (typeof value !== 'object' || value === null) return undefined;
  const pending: Step[] = [{ node: value, depth: 0, key: '', parent: undefined }];
  while (pending.length > 0) {
    const step = pending.pop()!;
    const keys: PropertyKey[] = Array.isArray(step.node) ? step.node.map((_item, index) => index) : Object.keys(step.node);
    if (keys.length > 0 && step.depth + 1 > MAX_INPUT_DEPTH) return tooDeep(step, keys[0]!);
    // Children pushed last-first, so the first offending place is the one a recursive walk finds.
    for (let index = keys.length - 1; index >= 0; index -= 1) {
      const key = keys[index]!;
      const child = (step.node as Record<PropertyKey, unknown>)[key];
      if (typeof child === 'object' && child !== null) pending.push({ node: child, depth: step.depth + 1, key, parent: step });
    }
  }
  return undefined;
}

declare global {
  interface String {
    /** Node 20 has these (ES2024); the ES2023 lib this project targets does not declare them. */
    isWellFormed(): boolean;
    toWellFormed(): string;
  }
}
