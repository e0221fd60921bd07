import { parse as parseQueryString } from 'node:querystring';
import fc from 'fast-check';
import { ERROR_CODES, ERROR_CODE_LIST } from '../../shared/error-codes.js';

/**
 * Property-based fuzzing of the REST API from its own OpenAPI document: arbitraries for valid
 * inputs derived from the JSON Schemas the document carries, hostile values and mutations of
 * those inputs, their exact wire form (JSON text, query strings), and the envelope rules every
 * answer must keep.
 */

export type JsonSchema = { [keyword: string]: any };

export interface OpenApiOperation {
  parameters?: JsonSchema[];
  requestBody?: { required?: boolean; content: Record<string, { schema?: JsonSchema; example?: unknown }> };
  security?: Record<string, unknown>[];
  responses: Record<string, unknown>;
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components?: { schemas?: Record<string, JsonSchema>; parameters?: Record<string, JsonSchema> };
}

export const HTTP_METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** `{"$ref": "#/components/…/Name", …siblings}` read as the schema it names, siblings winning. */
export function deref(document: OpenApiDocument, schema: JsonSchema): JsonSchema {
  let current = schema;
  for (let hops = 0; typeof current.$ref === 'string' && hops < 10; hops++) {
    const { $ref, ...siblings } = current;
    const target = ($ref as string)
      .replace(/^#\//, '')
      .split('/')
      .reduce<any>((node, part) => node?.[part], document);
    if (!target) throw new Error(`Unresolved $ref ${String($ref)}`);
    current = { ...target, ...siblings };
  }
  return current;
}

// ---------------------------------------------------------------------------------------------
// The wire form: JSON text the way a hostile client may write it.

/** A JSON token written as is: what JSON.stringify cannot write (1e400, -0, 9007199254740993). */
export class RawJson {
  constructor(readonly text: string) {}
}

/** An object written entry by entry: repeated keys, and `__proto__` as a plain own key. */
export class JsonEntries {
  constructor(readonly entries: [string, unknown][]) {}
}

/** JSON text of a value that may hold RawJson and JsonEntries. Lone surrogates come out as `\ud800` escapes. */
export function toJsonText(value: unknown): string {
  if (value instanceof RawJson) return value.text;
  if (value instanceof JsonEntries) return `{${value.entries.map(([key, inner]) => `${JSON.stringify(key)}:${toJsonText(inner)}`).join(',')}}`;
  if (Array.isArray(value)) return `[${value.map((item) => toJsonText(item)).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    // As JSON.stringify: a member whose value is undefined is left out.
    const members = Object.entries(value).filter(([, inner]) => inner !== undefined);
    return `{${members.map(([key, inner]) => `${JSON.stringify(key)}:${toJsonText(inner)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** A short, printable description of a body for a failure report (huge strings elided). */
export function describeBody(text: string | undefined): string {
  if (text === undefined) return '(no body)';
  const squeezed = text.replace(/(.)\1{200,}/gs, (run, char: string) => `${char}…(${run.length}×)`);
  return squeezed.length > 1500 ? `${squeezed.slice(0, 1500)}…(${text.length} bytes)` : squeezed;
}

// ---------------------------------------------------------------------------------------------
// Hostile material.

const NESTING = (depth: number, leaf: unknown): unknown => {
  let value = leaf;
  for (let level = 0; level < depth; level++) value = { a: value };
  return value;
};
const ARRAY_NESTING = (depth: number): unknown => {
  let value: unknown = [];
  for (let level = 0; level < depth; level++) value = [value];
  return value;
};

/** Strings PostgreSQL, JavaScript, templates or people find awkward. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.constantFrom(
      '',
      ' ',
      '\u0000',
      'a\u0000b',
      '\ud800',
      '\udfff',
      'emoji \ud83d',
      '\udc00\ud800',
      '\u202eevil\u202c',
      '\u200f\u200e\u061c',
      '\u200b\u200c\u200d\u2060',
      '\ufeffbom',
      '\uffff\ufffe',
      '\u{10FFFF}',
      '👩‍👩‍👧‍👦🏳️‍🌈',
      'e\u0301\u0302\u0303\u0304\u0305\u0306\u0307\u0308\u0309\u030a',
      'Z̷̡̧̛̛͓̟̰̳̝̫͔͇̝̦̗͍͔̈́̈́̓̀̓̓͂̂̾̄̚a̴l̸g̸o̸',
      'ﬃ İ ß ǅ',
      '\r\n\t\u000b\u000c\u0085\u2028\u2029',
      '<script>alert(1)</script>',
      "'; drop table projects; --",
      '%00%ZZ%ED%A0%80',
      '../../../etc/passwd',
      '{{#x}}{{/x}}{{{y}}}${7*7}',
      '%_\\',
      '__proto__',
      'constructor',
      'NaN',
      'Infinity',
      '-1',
      '1e308',
      'null',
      'true',
      '[]',
      '{}',
      'javascript:alert(1)',
      'https://127.0.0.1:9/hook',
      'http://169.254.169.254/latest/meta-data/',
      'prj_0000000000000000000000',
      'a'.repeat(101),
      'a'.repeat(256),
    ),
  },
  { weight: 1, arbitrary: fc.constantFrom('x'.repeat(100_000), '😀'.repeat(25_000), 'é'.repeat(60_000), '\u0000'.repeat(1000)) },
  { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
);

/** Numbers out of every range, and numbers that are not numbers. */
export const hostileNumber: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(
    new RawJson('1e308'),
    new RawJson('-1e308'),
    new RawJson('1e400'),
    new RawJson('-1e400'),
    new RawJson('1e-400'),
    new RawJson('-0'),
    new RawJson('9007199254740993'),
    new RawJson('123456789012345678901234567890'),
    new RawJson('0.1e1'),
    new RawJson('5.0'),
    2 ** 31,
    2 ** 53 + 2,
    -(2 ** 31) - 1,
    -1,
    0,
    0.5,
    1.5,
    Number.MAX_SAFE_INTEGER,
    Number.MIN_VALUE,
    'NaN',
    'Infinity',
    '-Infinity',
    '1',
    '0x10',
    '1e3',
  ),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

/** Object keys that probe prototypes, encodings and limits. */
export const hostileKey: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '__proto__',
    'constructor',
    'prototype',
    'toString',
    'hasOwnProperty',
    'valueOf',
    '',
    ' ',
    'k\u0000',
    '\ud800',
    '\u202ekey',
    '😀',
    'a.b',
    'a[0]',
    '$where',
    'x'.repeat(300),
    'unknownField',
    'id',
    'organizationId',
    'createdAt',
  ),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }),
);

/** Any JSON value a client should not send where a field expects something else. */
export const hostileValue: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { weight: 5, arbitrary: hostileString },
    { weight: 4, arbitrary: hostileNumber },
    { weight: 1, arbitrary: fc.constantFrom<unknown>(true, false, null) },
    {
      weight: 2,
      arbitrary: fc.constantFrom<unknown>(
        [],
        {},
        new JsonEntries([['__proto__', { polluted: true }]]),
        new JsonEntries([['constructor', { prototype: { polluted: true } }]]),
        new JsonEntries([
          ['prototype', { polluted: true }],
          ['__proto__', null],
        ]),
        NESTING(40, 'deep'),
        NESTING(10, 1),
        ARRAY_NESTING(60),
        Array.from({ length: 10_000 }, (_, index) => index),
        Array.from({ length: 10_000 }, () => 'a'),
        Object.fromEntries(Array.from({ length: 1000 }, (_, index) => [`k${index}`, index])),
      ),
    },
    { weight: 1, arbitrary: fc.array(tie('value'), { maxLength: 3 }) },
    { weight: 1, arbitrary: fc.dictionary(hostileKey, tie('value'), { maxKeys: 3 }).map((entries) => new JsonEntries(Object.entries(entries))) },
  ),
})).value;

/** Whole bodies that are not a JSON object of fields. */
const hostileWholeBody: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '[]',
    '[{}]',
    '"text"',
    '42',
    'true',
    'null',
    '{"a":1',
    '{"a":1}{"b":2}',
    "{'a':1}",
    '{"a":NaN}',
    '{"a":Infinity}',
    '{"a":undefined}',
    '{"a":1,}',
    '\ufeff{}',
    '{"a":"\\ud800"}',
    '{"a":"\\u0000"}',
    '{"__proto__":{"admin":true}}',
    '{"constructor":{"prototype":{"admin":true}}}',
    '',
    ' ',
    '{"a":"x' + 'y'.repeat(1_100_000) + '"}',
    `${'['.repeat(5000)}${']'.repeat(5000)}`,
    `${'{"a":'.repeat(3000)}1${'}'.repeat(3000)}`,
  ),
  hostileValue.map((value) => toJsonText(value)),
);

// ---------------------------------------------------------------------------------------------
// Valid inputs from a JSON Schema.

export interface SchemaContext {
  document: OpenApiDocument;
  /** Arbitraries for fields by property name (the tenant's ids, known-good questions), used instead of the schema. */
  byName?: Record<string, fc.Arbitrary<unknown>>;
}

const EMAIL = fc
  .tuple(fc.stringMatching(/^[a-z][a-z0-9._+-]{0,15}[a-z0-9]$/), fc.constantFrom('example.com', 'example.org', 'mail.example.net'))
  .map(([local, domain]) => `${local.replace(/\.{2,}/g, '.')}@${domain}`);
const FUTURE_DATE_TIME = fc.integer({ min: 60, max: 300 * 24 * 3600 }).map((seconds) => new Date(Date.now() + seconds * 1000).toISOString());
const RELATIVE_EXPIRY = fc.tuple(fc.integer({ min: 1, max: 400 }), fc.constantFrom('m', 'h', 'd', 'w')).map(([amount, unit]) => `${amount}${unit}`);
const HTTPS_URL = fc.stringMatching(/^[a-z0-9-]{1,12}$/).map((segment) => `https://127.0.0.1:9/${segment}`);
const HOST_NAME = fc.stringMatching(/^[a-z][a-z0-9-]{0,10}[a-z0-9]$/).map((label) => `${label}.fuzz.example.com`);
const LANGUAGE = fc.constantFrom('en', 'nl', 'de', 'fr', 'es', 'nl-BE', 'en-GB', 'pt', 'zz-ZZ');

const patternCache = new Map<string, fc.Arbitrary<string> | null>();
function patternArbitrary(pattern: string): fc.Arbitrary<string> | null {
  if (!patternCache.has(pattern)) {
    let arbitrary: fc.Arbitrary<string> | null;
    try {
      arbitrary = fc.stringMatching(new RegExp(pattern));
      fc.sample(arbitrary, 1);
    } catch {
      arbitrary = null; // e.g. lookaheads, which fast-check does not generate from
    }
    patternCache.set(pattern, arbitrary);
  }
  return patternCache.get(pattern)!;
}

function stringArbitrary(schema: JsonSchema): fc.Arbitrary<string> {
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const max = Math.min(typeof schema.maxLength === 'number' ? schema.maxLength : 60, Math.max(min, 60));
  switch (schema.format) {
    case 'email':
      return EMAIL;
    case 'uri':
      return HTTPS_URL;
    case 'date-time':
      return FUTURE_DATE_TIME;
    default:
  }
  if (typeof schema.description === 'string' && /relative expiry|expiresIn/i.test(schema.description)) return RELATIVE_EXPIRY;
  if (typeof schema.pattern === 'string') {
    if (schema.pattern.startsWith('^[A-Za-z]{2,3}(-')) return fc.oneof(LANGUAGE, patternArbitrary(schema.pattern)!);
    if (schema.pattern.includes('(?=.*[a-z])')) return HOST_NAME;
    const matching = patternArbitrary(schema.pattern);
    if (matching) return matching.map((value) => value.slice(0, Math.max(max, min, 1)));
  }
  return fc.oneof(fc.string({ unit: 'grapheme-ascii', minLength: min, maxLength: max }), fc.string({ unit: 'grapheme', minLength: min, maxLength: max }));
}

/** Values that satisfy `schema` (as far as a schema says: cross-field rules are the server's). */
export function validArbitrary(schema: JsonSchema, context: SchemaContext, name?: string): fc.Arbitrary<unknown> {
  if (name !== undefined && context.byName?.[name]) return context.byName[name]!;
  const resolved = deref(context.document, schema);
  if ('const' in resolved) return fc.constant(resolved.const);
  if (Array.isArray(resolved.enum)) return fc.constantFrom(...(resolved.enum as unknown[]));
  const alternatives = (resolved.anyOf ?? resolved.oneOf) as JsonSchema[] | undefined;
  if (Array.isArray(alternatives)) {
    const { anyOf: _anyOf, oneOf: _oneOf, ...rest } = resolved;
    return fc.oneof(...alternatives.map((alternative) => validArbitrary({ ...rest, ...alternative }, context)));
  }
  if (Array.isArray(resolved.type)) {
    return fc.oneof(...(resolved.type as string[]).map((type) => validArbitrary({ ...resolved, type }, context)));
  }
  const type = resolved.type ?? (resolved.properties || resolved.additionalProperties ? 'object' : undefined);
  switch (type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer': {
      const min = typeof resolved.minimum === 'number' ? resolved.minimum : -1_000_000;
      const max = typeof resolved.maximum === 'number' ? resolved.maximum : 1_000_000;
      return fc.oneof(fc.constantFrom(min, max), fc.integer({ min, max }));
    }
    case 'number': {
      const min = typeof resolved.minimum === 'number' ? resolved.minimum : -1_000_000;
      const max = typeof resolved.maximum === 'number' ? resolved.maximum : 1_000_000;
      return fc.oneof(fc.constantFrom(min, max), fc.double({ min, max, noNaN: true, noDefaultInfinity: true }));
    }
    case 'string':
      return stringArbitrary(resolved);
    case 'array': {
      const minLength = typeof resolved.minItems === 'number' ? resolved.minItems : 0;
      const maxLength = Math.min(typeof resolved.maxItems === 'number' ? resolved.maxItems : 3, minLength + 3);
      return fc.array(validArbitrary(resolved.items ?? {}, context), { minLength, maxLength });
    }
    case 'object': {
      const properties = (resolved.properties ?? {}) as Record<string, JsonSchema>;
      const names = Object.keys(properties);
      if (names.length === 0) {
        const values =
          resolved.additionalProperties && typeof resolved.additionalProperties === 'object' && Object.keys(resolved.additionalProperties).length > 0
            ? validArbitrary(resolved.additionalProperties, context)
            : fc.oneof(fc.string({ maxLength: 20 }), fc.integer(), fc.boolean());
        const keys = resolved.propertyNames ? stringArbitrary(deref(context.document, resolved.propertyNames)) : fc.string({ minLength: 1, maxLength: 20 });
        return fc.dictionary(keys, values, { maxKeys: 4, noNullPrototype: true });
      }
      const required = new Set<string>(Array.isArray(resolved.required) ? resolved.required : []);
      const model = Object.fromEntries(names.map((property) => [property, validArbitrary(properties[property]!, context, property)]));
      return fc.record(model, { requiredKeys: names.filter((property) => required.has(property)) }) as fc.Arbitrary<unknown>;
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

// ---------------------------------------------------------------------------------------------
// Mutations of a valid body.

type Path = (string | number)[];

interface MutationSeed {
  kind: 'replace' | 'drop' | 'extra' | 'duplicate';
  pick: number;
  key: string;
  value: unknown;
}

const mutationSeed: fc.Arbitrary<MutationSeed> = fc.record({
  kind: fc.constantFrom<MutationSeed['kind']>('replace', 'replace', 'replace', 'drop', 'extra', 'extra', 'duplicate'),
  pick: fc.nat(),
  key: hostileKey,
  value: hostileValue,
});

function isPlainContainer(value: unknown): value is Record<string, unknown> | unknown[] {
  return value !== null && typeof value === 'object' && !(value instanceof RawJson) && !(value instanceof JsonEntries);
}

/** Every path in the value that leads to a plain object or array member, root first. */
function pathsOf(value: unknown, prefix: Path = [], out: { path: Path; container: boolean }[] = []): { path: Path; container: boolean }[] {
  out.push({ path: prefix, container: isPlainContainer(value) && !Array.isArray(value) });
  if (isPlainContainer(value)) {
    for (const [key, inner] of Object.entries(value)) pathsOf(inner, [...prefix, Array.isArray(value) ? Number(key) : key], out);
  }
  return out;
}

function parentOf(root: unknown, path: Path): Record<string, unknown> | unknown[] | undefined {
  let node = root;
  for (const step of path.slice(0, -1)) {
    if (!isPlainContainer(node)) return undefined;
    node = (node as Record<string, unknown>)[step as string];
  }
  return isPlainContainer(node) ? node : undefined;
}

/** A private copy of a value: hostile values are shared constants, and a body is mutated in place. */
function cloneValue(value: unknown): unknown {
  if (value instanceof RawJson) return value;
  if (value instanceof JsonEntries) return new JsonEntries(value.entries.map(([key, inner]) => [key, cloneValue(inner)]));
  if (Array.isArray(value)) return value.map((item) => cloneValue(item));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, cloneValue(inner)]));
  return value;
}

/** Applies one mutation in place (on a clone the caller owns); answers what it did. */
function applyMutation(root: { body: unknown }, mutation: MutationSeed): string {
  const seed = { ...mutation, value: cloneValue(mutation.value) };
  const all = pathsOf(root.body, ['body']);
  switch (seed.kind) {
    case 'replace': {
      const members = all.filter((entry) => entry.path.length > 1);
      if (members.length === 0) return 'nothing to replace';
      const { path } = members[seed.pick % members.length]!;
      const parent = parentOf(root, path);
      if (!parent) return 'nothing to replace';
      (parent as Record<string, unknown>)[path[path.length - 1] as string] = seed.value;
      return `replace ${path.slice(1).join('.')}`;
    }
    case 'drop': {
      const members = all.filter((entry) => entry.path.length > 1 && typeof entry.path[entry.path.length - 1] === 'string');
      if (members.length === 0) return 'nothing to drop';
      const { path } = members[seed.pick % members.length]!;
      const parent = parentOf(root, path);
      if (parent && !Array.isArray(parent)) delete parent[path[path.length - 1] as string];
      return `drop ${path.slice(1).join('.')}`;
    }
    case 'extra':
    case 'duplicate': {
      const objects = all.filter((entry) => entry.container);
      if (objects.length === 0) return `nothing to ${seed.kind}`;
      const { path } = objects[seed.pick % objects.length]!;
      const parent = parentOf(root, path);
      const name = path[path.length - 1] as string;
      const target = parent ? ((parent as Record<string, unknown>)[name] as Record<string, unknown>) : undefined;
      if (!parent || !target) return `nothing to ${seed.kind}`;
      const entries = Object.entries(target);
      const existing = entries.length > 0 ? entries[seed.pick % entries.length]![0] : seed.key;
      // Written entry by entry, so `__proto__` stays an own key and a repeated key is repeated.
      (parent as Record<string, unknown>)[name] = new JsonEntries([...entries, [seed.kind === 'extra' ? seed.key : existing, seed.value]]);
      return `${seed.kind} ${[...path.slice(1), seed.kind === 'extra' ? seed.key : existing].join('.')}`;
    }
  }
}

export interface BodyCase {
  /** The JSON text sent. */
  text: string;
  /** What was done to the valid body. */
  label: string;
}

/** A valid body (sometimes), a valid body mutated once to thrice (mostly), or no object at all. */
export function bodyArbitrary(valid: fc.Arbitrary<unknown>): fc.Arbitrary<BodyCase> {
  const mutated = fc.tuple(valid, fc.array(mutationSeed, { minLength: 1, maxLength: 3 })).map(([body, seeds]) => {
    const root = { body: cloneValue(body) };
    const labels = seeds.map((seed) => applyMutation(root, seed));
    return { text: toJsonText(root.body), label: labels.join('; ') };
  });
  return fc.oneof(
    { weight: 2, arbitrary: valid.map((body) => ({ text: toJsonText(body), label: 'valid' })) },
    { weight: 10, arbitrary: mutated },
    { weight: 2, arbitrary: hostileWholeBody.map((text) => ({ text, label: 'not an object of fields' })) },
  );
}

/** Bodies for operations that take none: never empty, so every one of them must be refused. */
export const unwantedBodyArbitrary: fc.Arbitrary<BodyCase> = fc.oneof(
  fc.tuple(hostileKey, hostileValue).map(([key, value]) => ({ text: toJsonText(new JsonEntries([[key, value]])), label: `extra ${key}` })),
  // An empty object (a BOM before it is allowed, RFC 8259 §8.1) is what these operations take.
  hostileWholeBody.filter((text) => !['', '{}'].includes(text.replace(/^\ufeff/, '').trim())).map((text) => ({ text, label: 'not an object of fields' })),
);

// ---------------------------------------------------------------------------------------------
// Query strings.

/** Percent-encodes everything but unreserved characters; a lone surrogate as its WTF-8 bytes (%ED%A0%80). */
export function encodeQueryComponent(value: string): string {
  let out = '';
  for (let index = 0; index < value.length; index++) {
    const code = value.charCodeAt(index);
    const isHigh = code >= 0xd800 && code <= 0xdbff;
    const next = value.charCodeAt(index + 1);
    if (isHigh && next >= 0xdc00 && next <= 0xdfff) {
      out += encodeURIComponent(value.slice(index, index + 2));
      index++;
    } else if (code >= 0xd800 && code <= 0xdfff) {
      out += [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)].map((byte) => `%${byte.toString(16).toUpperCase()}`).join('');
    } else if (/[A-Za-z0-9\-._~]/.test(value[index]!)) {
      out += value[index];
    } else {
      out += encodeURIComponent(value[index]!);
    }
  }
  return out;
}

export interface QueryParameter {
  name: string;
  required: boolean;
  schema: JsonSchema;
}

/** Query values a number, enum, boolean flag or id parameter must refuse (or survive). */
const hostileQueryValue: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '-1',
    '0',
    '101',
    '1e9',
    '1e1',
    '0x10',
    '010',
    '1.5',
    ' 1',
    '1 ',
    '+1',
    '',
    'abc',
    'NaN',
    'Infinity',
    '9007199254740993',
    '99999999999999999999999',
    '2147483648',
    '-0',
    '１',
    '٣',
    'TRUE',
    'yes',
    '1 OR 1=1',
    '[]',
    '{}',
    'prj_0000000000000000000000',
    'cam_0000000000000000000000',
    'x'.repeat(1001),
    'y'.repeat(6000),
  ),
  hostileString.filter((value) => value.length <= 2000),
);

export interface QueryCase {
  /** Without the leading `?`; empty for none. */
  text: string;
  label: string;
}

/**
 * A query of the operation's parameters: valid values, then one to three mutations (a hostile
 * value, an unknown or repeated parameter, a missing required one, a path parameter repeated, raw
 * bad percent-encoding).
 */
export function queryArbitrary(parameters: QueryParameter[], context: SchemaContext, pathParameterNames: string[]): fc.Arbitrary<QueryCase> {
  const validPairs = fc
    .tuple(
      ...parameters.map((parameter) => {
        const value = validArbitrary(parameter.schema, context, parameter.name).map((inner) => String(inner));
        const pair = value.map((inner) => [parameter.name, inner] as const);
        // Optional parameters are left out two times in three, so a valid query is often a plain one.
        return parameter.required ? pair : fc.oneof({ weight: 2, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: pair });
      }),
    )
    .map((pairs) => pairs.filter((pair): pair is readonly [string, string] => pair !== undefined).map(([name, value]) => [name, value] as [string, string]));
  const names = [...parameters.map((parameter) => parameter.name), 'unknown', 'Limit', 'limit[]', '__proto__', 'constructor', ...pathParameterNames];
  type Seed = { kind: 'value' | 'unknown' | 'repeat' | 'drop' | 'raw'; pick: number; value: string; name: string };
  const seed: fc.Arbitrary<Seed> = fc.record({
    kind: fc.constantFrom<Seed['kind']>('value', 'value', 'value', 'unknown', 'repeat', 'drop', 'raw'),
    pick: fc.nat(),
    value: hostileQueryValue,
    name: fc.oneof(fc.constantFrom(...names), fc.string({ unit: 'grapheme', minLength: 1, maxLength: 10 })),
  });
  const RAW = ['%ZZ', '%', '%E0%A4%A', '%C0%AF', '%ED%A0%80', '%FF%FE', '%00', '+', '%2B', '%26', '%3D%3D', ';'];
  const mutated = fc.tuple(validPairs, fc.array(seed, { minLength: 1, maxLength: 3 })).map(([pairs, seeds]) => {
    const raw: string[] = [];
    const labels: string[] = [];
    for (const mutation of seeds) {
      const target = parameters.length > 0 ? parameters[mutation.pick % parameters.length]!.name : mutation.name;
      switch (mutation.kind) {
        case 'value': {
          const index = pairs.findIndex(([name]) => name === target);
          if (index >= 0) pairs[index] = [target, mutation.value];
          else pairs.push([target, mutation.value]);
          labels.push(`${target}=<hostile>`);
          break;
        }
        case 'unknown':
          pairs.push([mutation.name, mutation.value]);
          labels.push(`extra ${mutation.name}`);
          break;
        case 'repeat':
          pairs.push([target, pairs.find(([name]) => name === target)?.[1] ?? mutation.value], [target, mutation.value]);
          labels.push(`repeat ${target}`);
          break;
        case 'drop':
          labels.push(`drop ${target}`);
          pairs.splice(0, pairs.length, ...pairs.filter(([name]) => name !== target));
          break;
        case 'raw': {
          const text = RAW[mutation.pick % RAW.length]!;
          raw.push(mutation.pick % 2 === 0 ? `${encodeQueryComponent(target)}=${text}` : text);
          labels.push(`raw ${text}`);
          break;
        }
      }
    }
    const text = [...pairs.map(([name, value]) => `${encodeQueryComponent(name)}=${encodeQueryComponent(value)}`), ...raw].join('&');
    return { text, label: labels.join('; ') };
  });
  const valid = validPairs.map((pairs) => ({
    text: pairs.map(([name, value]) => `${encodeQueryComponent(name)}=${encodeQueryComponent(value)}`).join('&'),
    label: 'valid',
  }));
  return fc.oneof({ weight: 2, arbitrary: valid }, { weight: 5, arbitrary: mutated });
}

/** Queries for an operation that takes no parameters: never empty, so each must be refused. */
export function unwantedQueryArbitrary(pathParameterNames: string[]): fc.Arbitrary<QueryCase> {
  return fc
    .tuple(
      fc.oneof(
        fc.constantFrom('limit', 'offset', 'unknown', '__proto__', 'expand', ...pathParameterNames),
        fc.string({ unit: 'grapheme', minLength: 1, maxLength: 10 }),
      ),
      hostileQueryValue,
    )
    .map(([name, value]) => ({ text: `${encodeQueryComponent(name)}=${encodeQueryComponent(value)}`, label: `extra ${name}` }));
}

/** Path segments that are not ids: malformed, encoded oddly, or an id of another kind. */
export const hostilePathSegment: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    'abc',
    '__proto__',
    'constructor',
    '%00',
    '%ED%A0%80',
    '%E2%80%AE',
    '%F0%9F%98%80',
    'x'.repeat(300),
    'null',
    'undefined',
    '-1',
    '0',
    '2147483648',
    '99999999999999999999',
    '1e3',
    '0x1',
    '%2e%2e',
    "'%20or%201=1",
    'prj_',
    'cam_!!!!!!!!!!!!!!!!!!!!!!',
    'inv_0000000000000000000000000000000000000000000',
  ),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 }).map((value) => encodeQueryComponent(value)),
);

// ---------------------------------------------------------------------------------------------
// The envelope every answer keeps.

export interface Answer {
  status: number;
  headers: Record<string, unknown>;
  body: unknown;
  text?: string;
}

/**
 * What is wrong with an answer: a 5xx, an error outside the envelope, a code outside the table or
 * at another status than the table's, `details` that is not an object, `details.fields` that is
 * not a list of {path, message}.
 */
export function envelopeProblems(answer: Answer): string[] {
  const problems: string[] = [];
  if (answer.status >= 500) problems.push(`status ${answer.status}`);
  if (answer.status < 400) return problems;
  const contentType = String(answer.headers['content-type'] ?? '');
  if (!contentType.startsWith('application/json')) problems.push(`error answered as ${contentType || 'no content type'}`);
  const error = (answer.body as { error?: Record<string, unknown> } | undefined)?.error;
  if (!error || typeof error !== 'object') {
    problems.push('no error envelope');
    return problems;
  }
  const code = error.code as string;
  if (!ERROR_CODE_LIST.includes(code as never)) problems.push(`unknown error code ${JSON.stringify(code)}`);
  else if (ERROR_CODES[code as keyof typeof ERROR_CODES].status !== answer.status) problems.push(`${code} answered with status ${answer.status}`);
  if (typeof error.message !== 'string' || error.message.length === 0) problems.push('no error.message');
  const details = error.details;
  if (details === null || typeof details !== 'object' || Array.isArray(details)) {
    problems.push('error.details is not an object');
    return problems;
  }
  if (typeof error.requestId !== 'string' || error.requestId !== answer.headers['x-request-id'])
    problems.push('error.requestId missing or not the X-Request-Id header');
  const fields = (details as { fields?: unknown }).fields;
  if (code === 'VALIDATION_ERROR' && !(Array.isArray(fields) && fields.length > 0)) problems.push('422 without details.fields');
  if (fields !== undefined) {
    const wellFormed =
      Array.isArray(fields) &&
      fields.every(
        (field) => field && typeof field === 'object' && typeof field.path === 'string' && typeof field.message === 'string' && field.message.length > 0,
      );
    if (!wellFormed) problems.push(`details.fields is not a list of {path, message}: ${JSON.stringify(fields).slice(0, 300)}`);
  }
  return problems;
}

// ---------------------------------------------------------------------------------------------
// What the document says must be refused.

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Text PostgreSQL cannot store (docs/api.md, "Unknown fields and query parameters are rejected"). */
function unstorable(text: string): string | undefined {
  if (text.includes('\u0000')) return 'a NUL character';
  if (LONE_SURROGATE.test(text)) return 'an unpaired surrogate';
  return undefined;
}

type JsonType = 'null' | 'boolean' | 'string' | 'number' | 'array' | 'object';

function jsonTypeOf(value: unknown): JsonType {
  if (value === null) return 'null';
  if (value instanceof RawJson) return 'number';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'object') return 'object';
  return typeof value as JsonType;
}

/** An object's members as JSON.parse would keep them: the last of repeated keys wins. */
function membersOf(value: unknown): Map<string, unknown> {
  return new Map(value instanceof JsonEntries ? value.entries : Object.entries(value as object));
}

/**
 * Why `value` breaks `schema`, if it surely does: a wrong type, a missing required or an unknown
 * field, an enum, length, range, integer or pattern rule, a `__proto__` key, text PostgreSQL
 * cannot store. Formats are left to the server (it may be stricter), so undefined is not "valid".
 */
export function schemaViolation(schema: JsonSchema, value: unknown, document: OpenApiDocument, path = ''): string | undefined {
  const at = path || '(body)';
  const everywhere = deepViolation(value, path);
  if (everywhere) return everywhere;
  const resolved = deref(document, schema);
  const alternatives = (resolved.anyOf ?? resolved.oneOf) as JsonSchema[] | undefined;
  if (Array.isArray(alternatives)) {
    const { anyOf: _anyOf, oneOf: _oneOf, ...rest } = resolved;
    const reasons = alternatives.map((alternative) => schemaViolation({ ...rest, ...alternative }, value, document, path));
    return reasons.every((reason) => reason !== undefined) ? reasons[0] : undefined;
  }
  const type = jsonTypeOf(value);
  if ('const' in resolved && toJsonText(value) !== JSON.stringify(resolved.const)) return `${at} is not ${JSON.stringify(resolved.const)}`;
  if (Array.isArray(resolved.enum) && !resolved.enum.some((option: unknown) => toJsonText(value) === JSON.stringify(option)))
    return `${at} is not one of its values`;
  const declared = resolved.type ?? (resolved.properties ? 'object' : undefined);
  const types = (Array.isArray(declared) ? declared : declared === undefined ? [] : [declared]) as string[];
  if (types.length > 0 && !types.some((allowed) => allowed === type || (allowed === 'integer' && type === 'number')))
    return `${at} is ${type}, not ${types.join(' or ')}`;
  switch (type) {
    case 'string': {
      const text = value as string;
      if (typeof resolved.maxLength === 'number' && text.length > resolved.maxLength) return `${at} is longer than ${resolved.maxLength}`;
      if (typeof resolved.minLength === 'number' && text.length < resolved.minLength) return `${at} is shorter than ${resolved.minLength}`;
      if (typeof resolved.pattern === 'string' && !new RegExp(resolved.pattern).test(text)) return `${at} does not match ${resolved.pattern}`;
      return undefined;
    }
    case 'number': {
      const number = value instanceof RawJson ? Number(value.text) : (value as number);
      if (!Number.isFinite(number)) return `${at} is not a finite number`;
      if (types.includes('integer') && !types.includes('number') && !Number.isInteger(number)) return `${at} is not an integer`;
      if (typeof resolved.minimum === 'number' && number < resolved.minimum) return `${at} is below ${resolved.minimum}`;
      if (typeof resolved.maximum === 'number' && number > resolved.maximum) return `${at} is above ${resolved.maximum}`;
      return undefined;
    }
    case 'array': {
      const items = value as unknown[];
      if (typeof resolved.minItems === 'number' && items.length < resolved.minItems) return `${at} has fewer than ${resolved.minItems} items`;
      if (typeof resolved.maxItems === 'number' && items.length > resolved.maxItems) return `${at} has more than ${resolved.maxItems} items`;
      if (!resolved.items) return undefined;
      for (const [index, item] of items.entries()) {
        const reason = schemaViolation(resolved.items, item, document, `${path}[${index}]`);
        if (reason) return reason;
      }
      return undefined;
    }
    case 'object': {
      const members = membersOf(value);
      const properties = (resolved.properties ?? {}) as Record<string, JsonSchema>;
      for (const name of (resolved.required ?? []) as string[]) if (!members.has(name)) return `${path ? `${path}.` : ''}${name} is missing`;
      for (const [name, member] of members) {
        const memberPath = path ? `${path}.${name}` : name;
        if (Object.hasOwn(properties, name)) {
          const reason = schemaViolation(properties[name]!, member, document, memberPath);
          if (reason) return reason;
        } else if (resolved.additionalProperties === false) {
          return `${memberPath} is not a field`;
        } else if (resolved.additionalProperties && typeof resolved.additionalProperties === 'object') {
          const reason =
            (resolved.propertyNames ? schemaViolation(resolved.propertyNames, name, document, `${memberPath} (key)`) : undefined) ??
            schemaViolation(resolved.additionalProperties, member, document, memberPath);
          if (reason) return reason;
        }
      }
      return undefined;
    }
    default:
      return undefined;
  }
}

/** What is refused wherever it is: `__proto__` keys and text PostgreSQL cannot store, in keys and values. */
function deepViolation(value: unknown, path: string): string | undefined {
  const at = path || '(body)';
  if (typeof value === 'string') {
    const problem = unstorable(value);
    return problem ? `${at} holds ${problem}` : undefined;
  }
  if (Array.isArray(value)) return undefined; // items are checked as the schema walks them
  if (value === null || typeof value !== 'object' || value instanceof RawJson) return undefined;
  for (const key of membersOf(value).keys()) {
    if (key === '__proto__') return `${at} has a __proto__ key`;
    const problem = unstorable(key);
    if (problem) return `a key of ${at} holds ${problem}`;
  }
  return undefined;
}

/** The body the server reads from this JSON text (a BOM is dropped, an empty body is `{}`), or why there is none. */
export function parsedBody(text: string): { value: unknown } | { unreadable: string } {
  const body = text.replace(/^\ufeff/, '');
  if (body.length === 0) return { value: {} };
  try {
    return { value: JSON.parse(body) as unknown };
  } catch {
    return { unreadable: 'the body is not JSON' };
  }
}

/** Why a body surely breaks an operation's schema (the whole body checked, arrays included). */
export function bodyViolation(schema: JsonSchema, text: string, document: OpenApiDocument): string | undefined {
  const parsed = parsedBody(text);
  if ('unreadable' in parsed) return parsed.unreadable;
  // Iterative: bodies nest thousands of levels deep.
  const pending: [unknown, string][] = [[parsed.value, '']];
  while (pending.length > 0) {
    const [value, path] = pending.pop()!;
    const here = deepViolation(value, path);
    if (here) return here;
    if (Array.isArray(value)) value.forEach((item, index) => pending.push([item, `${path}[${index}]`]));
    else if (value !== null && typeof value === 'object')
      for (const [key, member] of Object.entries(value)) pending.push([member, path ? `${path}.${key}` : key]);
  }
  return schemaViolation(schema, parsed.value, document);
}

/**
 * Why a query surely breaks an operation's parameters: an unknown (or path) parameter, a
 * required one missing, a number that is not a plain decimal in range, a value outside its enum,
 * too long or not matching its pattern, a NUL. Read as the server reads it (node:querystring).
 */
export function queryViolation(parameters: QueryParameter[], text: string): string | undefined {
  const query = parseQueryString(text);
  const byName = new Map(parameters.map((parameter) => [parameter.name, parameter]));
  for (const [name, value] of Object.entries(query)) {
    const parameter = byName.get(name);
    if (!parameter) return `${JSON.stringify(name)} is not a parameter`;
    if (typeof value !== 'string') continue; // repeated: the document does not say
    if (value.includes('\u0000')) return `${name} holds a NUL character`;
    const schema = parameter.schema;
    if (schema.type === 'integer') {
      if (!/^\s*[+-]?\d+\s*$/.test(value)) return `${name}=${JSON.stringify(value)} is not a plain decimal`;
      const number = Number(value);
      if (typeof schema.minimum === 'number' && number < schema.minimum) return `${name} is below ${schema.minimum}`;
      if (typeof schema.maximum === 'number' && number > schema.maximum) return `${name} is above ${schema.maximum}`;
    } else if (schema.type === 'string') {
      if (Array.isArray(schema.enum) && !schema.enum.includes(value)) return `${name}=${JSON.stringify(value)} is not one of its values`;
      if (typeof schema.maxLength === 'number' && value.length > schema.maxLength) return `${name} is longer than ${schema.maxLength}`;
      if (typeof schema.minLength === 'number' && value.length < schema.minLength) return `${name} is shorter than ${schema.minLength}`;
      if (typeof schema.pattern === 'string' && !new RegExp(schema.pattern).test(value)) return `${name} does not match its pattern`;
    }
  }
  for (const parameter of parameters) if (parameter.required && !(parameter.name in query)) return `${parameter.name} is missing`;
  return undefined;
}
