/**
 * The refusal the spec documents (Errors 1): "When any rate limit is hit, the response status is 429 Too Many
 * Requests with a JSON error body of the shape errors[] with field (string or null) and message (string)". Pure
 * TypeScript: the k6 scripts judge a refusal with the catalogue's schema of that body.
 */
import { errorBodySchema, type JsonSchema } from '../../catalogue/schemas';
import { redact } from '../../clients/redact';

/** The first refusal the probe drew, as the target sent it: the body cut to an excerpt, judged whole. */
export interface RefusalEvidence {
  status: number;
  contentType: string | null;
  body: string;
  /** Why the whole body is not the documented JSON error body; [] when it is. */
  bodyProblems: string[];
}

/** Longest body excerpt a refusal's evidence keeps. */
export const REFUSAL_EXCERPT_CHARS = 200;

/** The evidence of a refusal from its status, Content-Type and body. */
export function refusalEvidence(status: number, contentType: string | null | undefined, body: string | null | undefined): RefusalEvidence {
  const text = String(body ?? '');
  const ct = contentType ?? null;
  return { status, contentType: ct, body: redact(text.slice(0, REFUSAL_EXCERPT_CHARS)), bodyProblems: refusalBodyProblems(ct, text) };
}

const typeOf = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : Number.isInteger(v) ? 'integer' : typeof v);

function typeMatches(want: unknown, v: unknown): boolean {
  const wants = Array.isArray(want) ? (want as string[]) : [want as string];
  const t = typeOf(v);
  return wants.includes(t) || (t === 'integer' && wants.includes('number'));
}

/**
 * `path: message` for each way `v` breaks `schema`, for the keywords the error body's schema uses (type,
 * properties, required, items, minItems): the schema in catalogue/schemas.ts stays the one home of the shape, and
 * the k6 scripts judge with it without a validator that compiles code at run time.
 */
export function schemaProblems(schema: JsonSchema, v: unknown, path = ''): string[] {
  if (schema.type !== undefined && !typeMatches(schema.type, v)) return [`${path || '/'}: must be ${String(schema.type)}, is ${typeOf(v)}`];
  const out: string[] = [];
  if (typeOf(v) === 'object') {
    const o = v as Record<string, unknown>;
    for (const k of (schema.required as string[] | undefined) ?? []) if (!(k in o)) out.push(`${path || '/'}: must have ${k}`);
    for (const [k, s] of Object.entries((schema.properties as Record<string, JsonSchema> | undefined) ?? {}))
      if (k in o) out.push(...schemaProblems(s, o[k], `${path}/${k}`));
  }
  if (Array.isArray(v)) {
    const min = schema.minItems as number | undefined;
    if (min !== undefined && v.length < min) out.push(`${path || '/'}: must have at least ${min} item(s), has ${v.length}`);
    if (schema.items) v.forEach((item, i) => out.push(...schemaProblems(schema.items as JsonSchema, item, `${path}/${i}`)));
  }
  return out;
}

/** Why a refusal's body is not the documented JSON error body, or [] when it is. */
export function refusalBodyProblems(contentType: string | null, body: string): string[] {
  if (!/json/i.test(contentType ?? '')) return [`Content-Type ${contentType ?? '(absent)'}, not JSON`];
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return ['the body does not parse as JSON'];
  }
  return schemaProblems(errorBodySchema, json);
}
