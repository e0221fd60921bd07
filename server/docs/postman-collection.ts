/**
 * A Postman collection (v2.1) made from the OpenAPI document, so the API can be tried in Postman
 * or Insomnia without writing a request: one folder per tag, one request per operation, with its
 * path variables, its query parameters (off until filled in), a JSON body (the document's example,
 * else the required fields with empty values) and the right key: `{{apiKey}}` for the API,
 * `{{inviteToken}}` for the participant's calls. Served at `GET /v1/postman-collection.json`.
 */

import { HTTP_METHODS } from '../http/openapi-document.js';

type JsonObject = Record<string, any>;
const POSTMAN_SCHEMA = 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json';

/** The schema a `$ref` names (`#/components/schemas/…`), or the schema itself. */
function resolve(document: JsonObject, schema: JsonObject | undefined): JsonObject | undefined {
  const ref: unknown = schema?.$ref;
  if (typeof ref !== 'string') return schema;
  return ref
    .split('/')
    .slice(1)
    .reduce<JsonObject | undefined>((node, key) => node?.[key], document);
}

/** A value of the schema's shape to start from: the required fields, each empty of its type. */
function skeleton(document: JsonObject, schema: JsonObject | undefined, depth = 0): unknown {
  const resolved = resolve(document, schema);
  if (!resolved || depth > 4) return null;
  if (resolved.example !== undefined) return resolved.example;
  if (resolved.default !== undefined) return resolved.default;
  if (Array.isArray(resolved.enum)) return resolved.enum[0];
  const alternatives = (resolved.anyOf ?? resolved.oneOf) as JsonObject[] | undefined;
  if (alternatives)
    return skeleton(
      document,
      alternatives.find((alternative) => alternative.type !== 'null'),
      depth + 1,
    );
  const type = Array.isArray(resolved.type) ? resolved.type.find((name: string) => name !== 'null') : resolved.type;
  switch (type) {
    case 'object': {
      const required = new Set<string>(resolved.required ?? []);
      const properties = Object.entries<JsonObject>(resolved.properties ?? {}).filter(([name]) => required.has(name));
      return Object.fromEntries(properties.map(([name, property]) => [name, skeleton(document, property, depth + 1)]));
    }
    case 'array':
      return [];
    case 'integer':
    case 'number':
      return resolved.minimum ?? 0;
    case 'boolean':
      return false;
    case 'string':
      return '';
    default:
      return null;
  }
}

function requestBody(document: JsonObject, operation: JsonObject): JsonObject | undefined {
  const content: JsonObject | undefined = operation.requestBody?.content;
  if (!content) return undefined;
  const json = content['application/json'];
  if (json) {
    const value = json.example ?? skeleton(document, json.schema);
    return { mode: 'raw', raw: JSON.stringify(value, null, 2), options: { raw: { language: 'json' } } };
  }
  const form = content['multipart/form-data'];
  if (form) {
    const schema = resolve(document, form.schema) ?? {};
    return {
      mode: 'formdata',
      formdata: Object.entries<JsonObject>(schema.properties ?? {}).map(([key, property]) =>
        property.format === 'binary' ? { key, type: 'file', src: [] } : { key, type: 'text', value: '', disabled: !(schema.required ?? []).includes(key) },
      ),
    };
  }
  return undefined;
}

function parametersOf(document: JsonObject, operation: JsonObject, where: 'path' | 'query'): JsonObject[] {
  return ((operation.parameters ?? []) as JsonObject[]).map((parameter) => resolve(document, parameter)!).filter((parameter) => parameter.in === where);
}

function requestItem(document: JsonObject, path: string, method: string, operation: JsonObject): JsonObject {
  const segments = path
    .split('/')
    .filter(Boolean)
    .map((segment) => segment.replace(/^\{(\w+)\}$/, ':$1'));
  const query = parametersOf(document, operation, 'query').map((parameter) => ({
    key: parameter.name,
    value: '',
    description: parameter.description ?? '',
    disabled: !parameter.required,
  }));
  const variable = parametersOf(document, operation, 'path').map((parameter) => ({ key: parameter.name, value: '', description: parameter.description ?? '' }));
  const participant =
    (operation.security ?? []).some((scheme: JsonObject) => 'inviteToken' in scheme) &&
    !(operation.security ?? []).some((scheme: JsonObject) => 'ApiKey' in scheme);
  const body = requestBody(document, operation);
  return {
    name: operation.summary ?? `${method.toUpperCase()} ${path}`,
    request: {
      method: method.toUpperCase(),
      ...(participant ? { auth: { type: 'bearer', bearer: [{ key: 'token', value: '{{inviteToken}}', type: 'string' }] } } : {}),
      header: body?.mode === 'raw' ? [{ key: 'Content-Type', value: 'application/json' }] : [],
      url: {
        raw: `{{baseUrl}}/${segments.join('/')}`,
        host: ['{{baseUrl}}'],
        path: segments,
        ...(query.length > 0 ? { query } : {}),
        ...(variable.length > 0 ? { variable } : {}),
      },
      ...(body ? { body } : {}),
      description: [operation.description, operation['x-permission'] ? `Needs \`${JSON.stringify(operation['x-permission'])}\`.` : undefined]
        .filter(Boolean)
        .join('\n\n'),
    },
  };
}

export function postmanCollection(document: JsonObject, baseUrl: string): JsonObject {
  const folders = new Map<string, JsonObject[]>();
  for (const [path, item] of Object.entries<JsonObject>(document.paths ?? {})) {
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const tag: string = operation.tags?.[0] ?? 'Other';
      folders.set(tag, [...(folders.get(tag) ?? []), requestItem(document, path, method, operation)]);
    }
  }
  const descriptions = new Map<string, string>(((document.tags ?? []) as JsonObject[]).map((tag) => [tag.name, tag.description ?? '']));
  return {
    info: {
      name: document.info.title,
      description: `${document.info.description}\n\nSet \`apiKey\` (an API key, \`isk_live_…\`) and, for the participant's calls, \`inviteToken\`. Made from /v1/openapi.json, version ${document.info.version}.`,
      version: document.info.version,
      schema: POSTMAN_SCHEMA,
    },
    auth: { type: 'bearer', bearer: [{ key: 'token', value: '{{apiKey}}', type: 'string' }] },
    variable: [
      { key: 'baseUrl', value: baseUrl, type: 'string' },
      { key: 'apiKey', value: '', type: 'string' },
      { key: 'inviteToken', value: '', type: 'string' },
    ],
    item: [...folders].map(([tag, items]) => ({ name: tag, ...(descriptions.get(tag) ? { description: descriptions.get(tag) } : {}), item: items })),
  };
}
