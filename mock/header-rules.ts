/**
 * The published document's constraints on request header values (maxLength, minLength, pattern,
 * enum), as the preHandler step checks them. Compiled once per route at registration: a request
 * costs one header lookup and one comparison per constrained header, and no allocation unless it
 * breaks one.
 */
import type { FastifyRequest } from 'fastify';
import { headerCheck, IM_HEADER_CONSTRAINTS, type HeaderConstraint, type Operation } from '../catalogue';
import { entryOf, type ErrorBody } from './errors';

/** The refusal of a request whose headers break the document's constraints, or null. */
export type HeaderRules = (req: FastifyRequest) => ErrorBody | null;

const accepts: HeaderRules = () => null;

/**
 * The header rules of an operation: every IM-* header the catalogue constrains, checked when the
 * request carries it (a missing required header is the required-headers check's answer). Webhook
 * operations list no IM-* header in the document, so nothing is checked there.
 */
export function compileHeaderRules(
  op: Pick<Operation, 'webhook' | 'family'>,
  constraints: Readonly<Record<string, HeaderConstraint>> = IM_HEADER_CONSTRAINTS,
): HeaderRules {
  if (op.webhook || op.family !== 'reseller') return accepts;
  const checks = Object.entries(constraints).map(([name, c]) => ({ lower: name.toLowerCase(), name, check: headerCheck(name, c) }));
  return (req) => {
    let body: ErrorBody | null = null;
    for (const { lower, name, check } of checks) {
      const v = req.headers[lower];
      if (typeof v !== 'string') continue;
      const why = check(v);
      if (why) (body ??= { errors: [] }).errors.push(entryOf('invalidHeader', { field: name, message: why, value: v.slice(0, 64) }));
    }
    return body;
  };
}
