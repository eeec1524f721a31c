/**
 * The preHandler's header step: the published required headers a request lacks, and the document's
 * constraints on the values it carries (maxLength, minLength, pattern, enum). Compiled once per route at
 * registration into one list of the headers either concerns: a request costs one lookup per header
 * named there, and allocates nothing unless it breaks a rule.
 */
import type { FastifyRequest } from 'fastify';
import { headerCheck, headerConstraintsOf, type HeaderConstraint, type Operation } from '../../catalogue';
import { entryOf, type ErrorBody } from '../ground/errors';

/**
 * What a request's headers break: the required headers it lacks and the refusal of the values that break a
 * constraint. A header sent with an empty value is present (OpenAPI's `allowEmptyValue` concerns query parameters
 * only): the empty value is judged like any other, by the constraints the operation gives the header, so only a
 * minLength or pattern a form gives refuses it (IM-CountryCode's minLength 2; no other required header has one).
 */
export interface HeaderFaults {
  missing: string[] | null;
  invalid: ErrorBody | null;
}

/** The faults of a request's headers, or null when it keeps every rule. */
export type HeaderRules = (req: FastifyRequest) => HeaderFaults | null;

interface HeaderRule {
  /** The name as the document spells it (error messages). */
  name: string;
  /** As Node stores it. */
  lower: string;
  required: boolean;
  check: ((value: string) => string | null) | null;
}

/**
 * The header rules of an operation: its required headers, and the constraints the document gives the values of
 * the headers the operation lists (catalogue/request-constraints.ts: per operation, what either published form
 * allows), checked when the request carries them. Webhook operations list no IM-* header in the document, so no
 * value is checked there; vendor operations neither.
 */
export function compileHeaderRules(
  op: Pick<Operation, 'id' | 'webhook' | 'family' | 'requiredHeaders'>,
  constraints: Readonly<Record<string, HeaderConstraint>> = headerConstraintsOf(op.id),
): HeaderRules {
  const byLower = new Map<string, HeaderRule>();
  for (const name of op.requiredHeaders) byLower.set(name.toLowerCase(), { name, lower: name.toLowerCase(), required: true, check: null });
  if (!op.webhook && op.family === 'reseller') {
    for (const [name, c] of Object.entries(constraints)) {
      const lower = name.toLowerCase();
      const known = byLower.get(lower);
      if (known) known.check = headerCheck(known.name, c);
      else byLower.set(lower, { name, lower, required: false, check: headerCheck(name, c) });
    }
  }
  const rules = [...byLower.values()];
  return (req) => {
    const headers = req.headers;
    let faults: HeaderFaults | null = null;
    for (let i = 0; i < rules.length; i++) {
      const r = rules[i] as HeaderRule;
      const v = headers[r.lower];
      if (r.required && v === undefined) ((faults ??= { missing: null, invalid: null }).missing ??= []).push(r.name);
      if (r.check === null || typeof v !== 'string') continue;
      const why = r.check(v);
      if (why) {
        faults ??= { missing: null, invalid: null };
        (faults.invalid ??= { errors: [] }).errors.push(entryOf('invalidHeader', { field: r.name, message: why, value: v.slice(0, 64) }));
      }
    }
    return faults;
  };
}
