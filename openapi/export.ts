/**
 * The harness's contract as OpenAPI 3.1, generated from the catalogue: every operation, both token
 * endpoints with their form bodies, the client-credentials schemes, the rate-limit headers on every
 * response, the 429 and error bodies, production and sandbox servers.
 */
import {
  allSchemas,
  operationsFor,
  familyBase,
  limitFor,
  tokenEndpoints,
  RATE_LIMIT_HEADERS,
  type Operation,
  type JsonSchema,
} from '../catalogue';

const nameOf = (id: string): string => id.replace(/^.*\/schemas\//, '').replace(/\.json$/, '');
const ref = (id: string) => ({ $ref: `#/components/schemas/${nameOf(id)}` });

/** The rate-limit headers of an answer, as references to the components the document declares. */
const rateLimitHeaderRefs = {
  [RATE_LIMIT_HEADERS.limit]: { $ref: '#/components/headers/X-RateLimit-Limit' },
  [RATE_LIMIT_HEADERS.remaining]: { $ref: '#/components/headers/X-RateLimit-Remaining' },
  [RATE_LIMIT_HEADERS.reset]: { $ref: '#/components/headers/X-RateLimit-Reset' },
};

function errorResponses(): Record<string, unknown> {
  return {
    '400': { $ref: '#/components/responses/BadRequest' },
    '401': { $ref: '#/components/responses/Unauthorized' },
    '404': { $ref: '#/components/responses/NotFound' },
    '429': { $ref: '#/components/responses/TooManyRequests' },
  };
}

function parametersOf(op: Operation): Record<string, unknown>[] {
  return [
    ...op.pathParams.map((p) => ({ name: p, in: 'path', required: true, schema: { type: 'string' } })),
    ...op.queryParams.map((q) => ({ name: q.name, in: 'query', required: q.required, schema: { type: q.type } })),
    ...op.requiredHeaders.map((h) => ({ name: h, in: 'header', required: true, schema: { type: 'string' } })),
  ];
}

function operationObject(op: Operation): Record<string, unknown> {
  const status = String(op.successStatus);
  const params = parametersOf(op);
  return {
    operationId: op.id,
    summary: op.name,
    tags: [op.group],
    description: `${op.source === 'assumption' ? 'ASSUMPTION (the spec shows vendor operations only as a placeholder). ' : ''}Limit: ${limitFor(op)} calls per window per app${op.method === 'GET' ? ' (spec: 60 per minute)' : ' (assumption: the spec does not show non-GET limits)'}.`,
    security: [{ [op.family === 'reseller' ? 'resellerOAuth' : 'vendorOAuth']: [] }],
    ...(params.length ? { parameters: params } : {}),
    ...(op.requestSchema ? { requestBody: { required: true, content: { 'application/json': { schema: ref(op.requestSchema) } } } } : {}),
    responses: {
      // A shape no document gives (the vendor family) is exported without a schema.
      [status]: {
        description: 'Success',
        headers: rateLimitHeaderRefs,
        content: { 'application/json': op.responseSchema ? { schema: ref(op.responseSchema) } : {} },
      },
      ...errorResponses(),
    },
  };
}

function tokenPath(family: 'reseller' | 'vendor'): Record<string, unknown> {
  const ep = tokenEndpoints[family];
  return {
    post: {
      operationId: `token.${family}`,
      summary: `${family} access token (client credentials)`,
      tags: ['Authentication'],
      description: ep.listedMethod ? 'A listing of the spec gives GET; the documented way is this form-body POST.' : 'Form-body POST.',
      security: [],
      requestBody: {
        required: true,
        content: {
          [ep.contentType]: {
            schema: {
              type: 'object',
              required: ['grant_type', 'client_id', 'client_secret'],
              properties: {
                grant_type: { type: 'string', enum: [ep.grantType] },
                client_id: { type: 'string' },
                client_secret: { type: 'string', format: 'password' },
              },
            },
          },
        },
      },
      responses: {
        '200': {
          description: 'Token issued',
          headers: rateLimitHeaderRefs,
          content: { 'application/json': { schema: ref('token-response') } },
        },
        '400': { $ref: '#/components/responses/BadRequest' },
        '401': { $ref: '#/components/responses/Unauthorized' },
        '429': { $ref: '#/components/responses/TooManyRequests' },
      },
    },
  };
}

const errorResponse = (description: string) => ({
  description,
  headers: rateLimitHeaderRefs,
  content: { 'application/json': { schema: ref('error-body') } },
});

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === 'object')
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, sortKeys((v as Record<string, unknown>)[k])]),
    );
  return v;
}

export function buildOpenApi(version = '0.1.0'): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  paths[tokenEndpoints.reseller.path] = tokenPath('reseller');
  paths[tokenEndpoints.vendor.path] = tokenPath('vendor');
  for (const op of operationsFor()) {
    const p = `${familyBase(op.family, 'production')}${op.path}`;
    paths[p] = { ...(paths[p] ?? {}), [op.method.toLowerCase()]: operationObject(op) };
  }
  const schemas: Record<string, JsonSchema> = {};
  for (const s of allSchemas) {
    const { $id, ...rest } = s;
    schemas[nameOf(String($id))] = rest;
  }
  const doc = {
    openapi: '3.1.0',
    info: {
      title: 'Distributor Commerce API (harness contract)',
      version,
      description:
        "Generated by `npm run openapi` from the harness catalogue. Business bodies, IM-* headers and query parameters follow the field names and types of the distributor's published document (schemas written by the harness); token, rate-limit headers and the 429 body follow the spec.",
    },
    servers: [
      { url: '{base_url}', description: 'production', variables: { base_url: { default: 'https://api.example.com' } } },
      { url: '{base_url}/sandbox', description: 'sandbox', variables: { base_url: { default: 'https://api.example.com' } } },
    ],
    paths,
    components: {
      schemas,
      securitySchemes: {
        resellerOAuth: {
          type: 'oauth2',
          description: 'Reseller family (oauth20)',
          flows: { clientCredentials: { tokenUrl: tokenEndpoints.reseller.path, scopes: {} } },
        },
        vendorOAuth: {
          type: 'oauth2',
          description: 'Vendor family (oauth30)',
          flows: { clientCredentials: { tokenUrl: tokenEndpoints.vendor.path, scopes: {} } },
        },
      },
      headers: {
        'X-RateLimit-Limit': {
          description: 'Total rate limit available per app per transaction.',
          schema: { type: 'integer' },
          required: true,
        },
        'X-RateLimit-Remaining': {
          description: 'Requests the app can still send for that transaction.',
          schema: { type: 'integer' },
          required: true,
        },
        'X-RateLimit-Reset': {
          description: 'Unix (epoch) time at which the remaining counter resets (the spec also reads it as seconds to wait).',
          schema: { type: 'integer' },
          required: true,
        },
      },
      responses: {
        BadRequest: errorResponse('Invalid request'),
        Unauthorized: errorResponse('Missing, invalid or expired token, or invalid client credentials'),
        NotFound: errorResponse('Unknown resource'),
        TooManyRequests: errorResponse('Rate limit hit: errors[] with field null and a message; X-RateLimit-Remaining 0'),
      },
    },
  };
  return sortKeys(doc) as Record<string, unknown>;
}

export const serialise = (doc: unknown): string => `${JSON.stringify(doc, null, 2)}\n`;
