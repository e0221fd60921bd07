/**
 * The generated document states some things many times over: zod's 350-character date-time
 * pattern on every timestamp, the same query parameters on every list, the same headers on every
 * webhook, and `…Output` copies of schemas that had nothing to open. Each is a size a generated
 * client pays to parse and typecheck. These passes state each thing once; none changes what the
 * document accepts or answers.
 */

type JsonObject = Record<string, any>;

const METHODS = ['get', 'post', 'patch', 'put', 'delete'] as const;

/**
 * The formats whose zod pattern restates the format (an RFC 3339 date-time with its offset, an IP
 * address). Not `email`: zod's pattern is stricter than the format, and a client validating by the
 * format alone would send addresses the service refuses.
 */
const PATTERN_STATED_BY_FORMAT = new Set(['date-time', 'ipv4', 'ipv6']);

/**
 * zod writes the regular expression it checks a format with beside the format itself. Where the
 * format says the same, the pattern only repeats it: 350 characters a timestamp.
 */
export function dropPatternsStatedByFormat(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) dropPatternsStatedByFormat(item);
    return;
  }
  if (!node || typeof node !== 'object') return;
  const schema = node as JsonObject;
  if (typeof schema.pattern === 'string' && PATTERN_STATED_BY_FORMAT.has(schema.format)) delete schema.pattern;
  for (const value of Object.values(schema)) dropPatternsStatedByFormat(value);
}

function operationsOf(document: JsonObject): JsonObject[] {
  const items = [...Object.values(document.paths ?? {}), ...Object.values(document.webhooks ?? {})] as JsonObject[];
  return items.flatMap((item) => METHODS.map((method) => item[method] as JsonObject | undefined).filter((operation) => operation !== undefined));
}

/**
 * A query or header parameter written the same way on two operations or more becomes one
 * `components.parameters` entry, named by the parameter (`limit`, `webhook-signature`). Where
 * one name has variants (a `limit` of 50 beside the usual 20), the most used variant is shared
 * and the rest stay where they are: a name always means one parameter.
 */
export function shareRepeatedParameters(document: JsonObject): void {
  const operations = operationsOf(document);
  const uses = new Map<string, { parameter: JsonObject; count: number }>();
  for (const operation of operations) {
    for (const parameter of (operation.parameters ?? []) as JsonObject[]) {
      if ('$ref' in parameter || parameter.in === 'path') continue;
      const key = JSON.stringify(parameter);
      const entry = uses.get(key) ?? { parameter, count: 0 };
      entry.count += 1;
      uses.set(key, entry);
    }
  }
  const components: JsonObject = (document.components.parameters ??= {});
  const sharedName = new Map<string, string>();
  const byUse = [...uses].filter(([, { count }]) => count > 1).sort(([, a], [, b]) => b.count - a.count);
  for (const [key, { parameter }] of byUse) {
    const name = String(parameter.name);
    if (components[name] && JSON.stringify(components[name]) !== key) continue;
    components[name] = parameter;
    sharedName.set(key, name);
  }
  for (const operation of operations) {
    if (!operation.parameters) continue;
    operation.parameters = (operation.parameters as JsonObject[]).map((parameter) => {
      const name = sharedName.get(JSON.stringify(parameter));
      return name ? { $ref: `#/components/parameters/${name}` } : parameter;
    });
  }
}

/**
 * `openResponseSchemas` copies a schema used by requests and responses as `…Output` without
 * `additionalProperties: false`. A copy that came out the same as its original (nothing in it was
 * closed) is dropped and its references point at the original.
 */
export function dropIdenticalOutputCopies(document: JsonObject): void {
  const schemas: JsonObject = document.components.schemas;
  for (;;) {
    const same = Object.keys(schemas).filter(
      (name) =>
        name.endsWith('Output') &&
        schemas[name.slice(0, -'Output'.length)] &&
        JSON.stringify(schemas[name]) === JSON.stringify(schemas[name.slice(0, -'Output'.length)]),
    );
    if (same.length === 0) return;
    const renamed = new Map(same.map((name) => [`#/components/schemas/${name}`, `#/components/schemas/${name.slice(0, -'Output'.length)}`]));
    for (const name of same) delete schemas[name];
    const point = (node: unknown): void => {
      if (Array.isArray(node)) return node.forEach(point);
      if (!node || typeof node !== 'object') return;
      const object = node as JsonObject;
      if (typeof object.$ref === 'string' && renamed.has(object.$ref)) object.$ref = renamed.get(object.$ref);
      for (const value of Object.values(object)) point(value);
    };
    point(document.paths);
    point(document.webhooks);
    point(document.components);
  }
}

const LIVEMODE_PROPERTY = {
  type: 'boolean',
  description:
    'Test mode: false for a record of the test world (answered to an `isk_test_` key or a test invite), true for live data. On every record an answer carries: the answer itself, its top-level records, and the items of a list.',
};

/**
 * `livemode` on the schemas of the records answers carry, read as server/http/livemode.ts marks
 * them: a success's schema when it has an `id`, else its top-level properties that have one, and
 * the items of its `data`. The property is not `required`: a schema marked here may also be
 * nested inside another answer, where it is not marked.
 */
export function declareLivemode(document: JsonObject): void {
  const schemas: JsonObject = document.components?.schemas ?? {};
  const resolve = (schema: JsonObject | undefined): JsonObject | undefined => {
    const ref = schema?.$ref as string | undefined;
    return ref?.startsWith('#/components/schemas/') ? schemas[ref.slice('#/components/schemas/'.length)] : schema;
  };
  const isRecord = (schema: JsonObject | undefined): schema is JsonObject => schema?.type === 'object' && schema.properties?.id !== undefined;
  const mark = (schema: JsonObject) => {
    schema.properties.livemode ??= LIVEMODE_PROPERTY;
  };
  for (const item of Object.values(document.paths ?? {}) as JsonObject[]) {
    for (const method of METHODS) {
      for (const [status, response] of Object.entries((item[method]?.responses ?? {}) as JsonObject)) {
        if (!status.startsWith('2')) continue;
        const answer = resolve(resolve(response)?.content?.['application/json']?.schema);
        if (answer?.type !== 'object' || !answer.properties) continue;
        if (isRecord(answer)) {
          mark(answer);
          continue;
        }
        for (const [name, property] of Object.entries((answer as JsonObject).properties as JsonObject)) {
          const target = name === 'data' && property.type === 'array' ? resolve(property.items) : resolve(property);
          if (isRecord(target)) mark(target);
        }
      }
    }
  }
}
