/**
 * The OpenAPI 3.1 document of the API (`GET /api/openapi.json`), generated from the operations of
 * `api-registry.ts`: the same zod objects the endpoints validate their input with and the result
 * schemas their handlers are typed against. Converted by zod's own JSON Schema converter, whose
 * dialect (2020-12) is OpenAPI 3.1's; schemas with a `meta({ id })` become shared components.
 */
import { z } from 'zod';
import { ERROR_STATUS, type ServerErrorKey } from '../../lib/contract/errors.ts';
import { listApiOperations, type ApiOperation } from './api-registry.ts';
import { API_TAGS } from './endpoint.ts';

type Json = Record<string, unknown>;

/** A schema as JSON Schema: `io: 'input'` for what a client sends, `'output'` for what it gets. */
export function toJsonSchema(schema: z.ZodType, io: 'input' | 'output', components: Json = {}): Json {
  const converted = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as Json;
  delete converted.$schema;
  const defs = (converted.$defs ?? {}) as Json;
  delete converted.$defs;
  // Named schemas go to `components.schemas`; an input and an output of one name may differ
  // (defaults are optional on input), so inputs get their own name.
  const rename = (id: string) => (io === 'input' ? `${id}Input` : id);
  const rewrite = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rewrite);
    if (value && typeof value === 'object') {
      const out: Json = {};
      for (const [key, inner] of Object.entries(value)) {
        out[key] = key === '$ref' && typeof inner === 'string' && inner.startsWith('#/$defs/') ? `#/components/schemas/${rename(inner.slice('#/$defs/'.length))}` : rewrite(inner);
      }
      return out;
    }
    return value;
  };
  for (const [id, def] of Object.entries(defs)) components[rename(id)] = rewrite(def);
  return rewrite(converted) as Json;
}

/** The error envelope for the keys of one status. */
function errorEnvelopeSchema(status: number, keys: ServerErrorKey[]) {
  return z.object({
    retCode: z.literal(status),
    message: z.string().meta({ description: 'The key’s message in the request’s language' }),
    errorKey: z.enum(keys as [ServerErrorKey, ...ServerErrorKey[]]),
    fields: z.record(z.string(), z.string()).optional().meta({ description: 'Field path → `validation.<key>` (with `validation` only)' }),
  });
}

/** The keys every operation of its kind may answer, besides its own. */
function commonErrors(operation: ApiOperation): ServerErrorKey[] {
  if (!operation.result) return ['internal'];
  const keys: ServerErrorKey[] = ['method_not_allowed', 'internal'];
  if (operation.input) keys.push('validation');
  if (operation.method === 'post') keys.push('cross_site_request', ...(operation.docs.body ? [] : (['bad_request', 'unsupported_type'] as const)));
  if (operation.auth === 'required') keys.push('unauthorized');
  if (operation.role) keys.push('forbidden');
  return keys;
}

/** The error keys of an operation by HTTP status. */
export function errorKeysByStatus(operation: ApiOperation): Map<number, ServerErrorKey[]> {
  const byStatus = new Map<number, ServerErrorKey[]>();
  for (const key of new Set([...commonErrors(operation), ...(operation.docs.errors ?? [])])) {
    const status = ERROR_STATUS[key];
    byStatus.set(status, [...(byStatus.get(status) ?? []), key]);
  }
  return new Map([...byStatus].sort(([a], [b]) => a - b));
}

function parameters(location: 'query' | 'path' | 'header', schema: z.ZodObject | undefined, components: Json, example?: Record<string, unknown>): Json[] {
  if (!schema) return [];
  const json = toJsonSchema(schema, 'input', components);
  const required = new Set((json.required as string[] | undefined) ?? []);
  return Object.entries((json.properties ?? {}) as Record<string, Json>).map(([name, property]) => ({
    name,
    in: location,
    required: location === 'path' || required.has(name),
    ...(typeof property.description === 'string' ? { description: property.description } : {}),
    schema: property,
    ...(example && name in example ? { example: example[name] } : {}),
  }));
}

const SECURITY = {
  required: [{ cookieSession: [] }, { bearerToken: [] }],
  optional: [{}, { cookieSession: [] }, { bearerToken: [] }],
  none: [],
} as const;

const AUTH_NOTE = {
  required: 'Needs a session: the `token` cookie or `Authorization: Bearer <token>`.',
  optional: 'Works for guests; with a session (cookie or Bearer) the answer includes what that member may see.',
  none: 'No session needed.',
} as const;

function operationObject(operation: ApiOperation, components: Json): Json {
  const { docs } = operation;
  const json: Json = {
    operationId: `${operation.method}${operation.path.replace(/[^A-Za-z0-9]+/g, '_')}`,
    summary: docs.summary,
    description: [docs.description, `**Auth:** ${AUTH_NOTE[operation.auth]}`, operation.role && `**Staff:** only members whose role includes \`${operation.role}\` (403 \`forbidden\` otherwise).`]
      .filter(Boolean)
      .join('\n\n'),
    tags: [docs.tag],
    security: SECURITY[operation.auth],
    'x-auth': operation.auth,
    ...(operation.role ? { 'x-role': operation.role } : {}),
  };
  const isEnvelope = Boolean(operation.result);
  const params = [
    ...parameters('path', operation.params, components),
    ...parameters('query', operation.method === 'get' ? (operation.input as z.ZodObject | undefined) ?? operation.query : operation.query, components, docs.example),
    ...parameters('header', operation.headers, components),
  ];
  if (params.length) json.parameters = params;
  if (operation.method === 'post' && docs.body) {
    json.requestBody = { required: true, content: { [docs.body.contentType]: { schema: toJsonSchema(docs.body.schema, 'input', components) } } };
  } else if (operation.method === 'post' && operation.input) {
    json.requestBody = {
      required: true,
      content: { 'application/json': { schema: toJsonSchema(operation.input, 'input', components), ...(docs.example ? { example: docs.example } : {}) } },
    };
  } else if (docs.body) {
    json.requestBody = { required: true, content: { [docs.body.contentType]: { schema: toJsonSchema(docs.body.schema, 'input', components) } } };
  }
  const responses: Json = {};
  if (isEnvelope && docs.file) {
    responses['200'] = { description: docs.file.description, content: { [docs.file.contentType]: { schema: { type: 'string', format: 'binary' } } } };
  } else if (isEnvelope) {
    const envelope = z.object({ retCode: z.literal(0), result: operation.result! });
    responses['200'] = { description: 'Success: `{ retCode: 0, result }`', content: { 'application/json': { schema: toJsonSchema(envelope, 'output', components) } } };
  } else if (operation.success) {
    const { status, description, contentType, schema, headers } = operation.success;
    responses[String(status)] = {
      description,
      ...(headers ? { headers: Object.fromEntries(Object.entries(headers).map(([name, text]) => [name, { description: text, schema: { type: 'string' } }])) } : {}),
      ...(contentType ? { content: { [contentType]: { schema: schema ? toJsonSchema(schema, 'output', components) : { type: 'string', format: contentType.startsWith('text/') ? undefined : 'binary' } } } } : {}),
    };
  }
  for (const [status, keys] of errorKeysByStatus(operation)) {
    responses[String(status)] = {
      description: keys.map((key) => `\`${key}\``).join(', '),
      content: { 'application/json': { schema: toJsonSchema(errorEnvelopeSchema(status, keys), 'output', components) } },
    };
  }
  json.responses = responses;
  return json;
}

/** The document, built from the registry. */
export async function buildOpenApiDocument(): Promise<Json> {
  const components: Json = {};
  const paths: Record<string, Json> = {};
  for (const operation of await listApiOperations()) {
    paths[operation.path] ??= {};
    paths[operation.path]![operation.method] = operationObject(operation, components);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Copperhub API',
      version: '1',
      description: [
        'Every endpoint answers `{ "retCode": 0, "result": … }` on success and `{ "retCode": <HTTP status>, "message", "errorKey", "fields"? }` on failure; `errorKey` is a stable key, `message` its text in the request’s language.',
        'Read endpoints take `GET` with query parameters as well as `POST` with a JSON body; writes are `POST` only. Lists answer `{ list, total, page, pageSize }` (`pageSize` ≤ 50).',
        'A session is the `token` cookie (browsers; writes must then come from this site) or `Authorization: Bearer <token>` (apps and scripts).',
      ].join('\n\n'),
    },
    tags: Object.entries(API_TAGS).map(([name, description]) => ({ name, description })),
    paths,
    components: {
      schemas: Object.fromEntries(Object.entries(components).sort(([a], [b]) => a.localeCompare(b))),
      securitySchemes: {
        cookieSession: { type: 'apiKey', in: 'cookie', name: 'token', description: 'The session cookie set by signing in' },
        bearerToken: { type: 'http', scheme: 'bearer', description: 'A session token, for apps and scripts' },
      },
    },
  };
}

let cachedJson: Promise<string> | undefined;

/** The document as JSON text, generated once per process (the schemas cannot change while it runs). */
export function openApiJson(): Promise<string> {
  cachedJson ??= buildOpenApiDocument().then((document) => JSON.stringify(document));
  return cachedJson;
}
