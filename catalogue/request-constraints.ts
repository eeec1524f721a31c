/**
 * What the distributor's published document allows in each operation's request, as the catalogue holds it: per
 * operation, each header, query and path parameter (required, type and format, enum, maxLength, minLength, pattern,
 * integer range) and the JSON body at every depth (type, nullable as a `null` type, maxLength, minLength, enum,
 * format, minimum/maximum, minItems/maxItems, required), in JSON Schema keywords.
 *
 * The two published forms disagree in places; the catalogue holds what either allows, location by location: a value
 * is refused only where both forms refuse it (a bound only both give, the looser of two; an enum only both give,
 * their union; a name required only where both require it; a property only one form declares takes any value). A
 * format no validator enforces (`decimal`) refuses nothing and is not held. The data
 * (request-constraints-data.ts) is written by `npm run openapi -- constraints <yaml> <json>` and held to both forms,
 * both ways, by tests/openapi/request-schemas.spec.ts.
 *
 * The mock enforces it (headers: mock/checks/header-rules.ts; query and path: mock/checks/query-rules.ts; body: the request
 * schemas of catalogue/schemas.ts, built from it). An operation no form documents (quote to order) has none: the
 * mock keeps the catalogue's assumptions there (IM_HEADER_CONSTRAINTS, its own request schema). The seed spec shows
 * no business request's parameters or body ("not shown"), so no seed fact overrides a constraint here. The documented
 * conflicts with the distributor's generated client keep their leniency (mock/checks/document-conflicts.ts): the
 * client's form is accepted (rewritten to the document's) before these constraints judge the request. No form gives
 * `allowEmptyValue`: an empty query value reads as the parameter left out.
 */
import { REQUEST_CONSTRAINTS_DATA } from './request-constraints-data';
import { FORMS_DISAGREE_AT } from './forms-disagree-data';
import { IM_HEADER_CONSTRAINTS, type HeaderConstraint } from './rules';

/** A JSON Schema node (draft-07 keywords). */
export type ConstraintNode = Record<string, unknown>;

/** The constraints of one operation's request. */
export interface RequestConstraintSet {
  /** By the header's name as the document spells it; `required: true` on a required one. */
  headers: Record<string, ConstraintNode>;
  /** By the parameter's name; `required: true` on a required one. */
  query: Record<string, ConstraintNode>;
  /**
   * By the catalogue's name of the path parameter (the document names them its own way: `ingramPartNumber` for the
   * catalogue's `partNumber`); absent where the operation's path has none.
   */
  path?: Record<string, ConstraintNode>;
  /** The JSON body's schema; absent when the operation documents no JSON body. */
  body?: ConstraintNode;
}

/** The constraints of an operation the published document gives (either form); undefined for one it does not. */
export function requestConstraintsOf(operationId: string): RequestConstraintSet | undefined {
  return (REQUEST_CONSTRAINTS_DATA as Readonly<Record<string, RequestConstraintSet>>)[operationId];
}

/**
 * Whether both published forms give a location of an operation's request (`query pageSize`, `body lines[].notes`,
 * `header im-countrycode`) the same constraints, at it and at every location holding it: a value the catalogue
 * allows there is then one both forms allow. An operation one form documents agrees with itself.
 */
export function formsAgreeAt(operationId: string, location: string): boolean {
  const disagree = FORMS_DISAGREE_AT[operationId] ?? [];
  return !disagree.some((d) => location === d || location.startsWith(`${d}.`) || location.startsWith(`${d}[]`));
}

/** The body schema of a documented operation (the catalogue's request schema is built on it). */
export function documentedBodyOf(operationId: string): ConstraintNode {
  const body = requestConstraintsOf(operationId)?.body;
  if (!body) throw new Error(`catalogue: no documented request body for ${operationId}`);
  return body;
}

/**
 * The constraints on the values of the headers an operation lists, by header name: the document's for a documented
 * operation; for another reseller operation (quote to order), the IM-* headers' usual constraints (an assumption).
 */
export function headerConstraintsOf(operationId: string): Readonly<Record<string, HeaderConstraint>> {
  const set = requestConstraintsOf(operationId);
  if (!set) return IM_HEADER_CONSTRAINTS;
  const out: Record<string, HeaderConstraint> = {};
  for (const [name, n] of Object.entries(set.headers)) {
    const c: { -readonly [K in keyof HeaderConstraint]: HeaderConstraint[K] } = {};
    if (typeof n.maxLength === 'number') c.maxLength = n.maxLength;
    if (typeof n.minLength === 'number') c.minLength = n.minLength;
    if (typeof n.pattern === 'string') c.pattern = n.pattern;
    if (Array.isArray(n.enum)) c.enum = n.enum as string[];
    if (Object.keys(c).length) out[name] = c;
  }
  return out;
}
