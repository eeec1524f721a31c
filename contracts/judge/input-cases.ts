/**
 * The values certify tries in an operation's input, as a property-based API tester does ("positive data acceptance",
 * "negative data rejection"): per documented operation, a few values both published forms allow and a few both
 * refuse, drawn from the constraints the catalogue holds (catalogue/request-constraints.ts) with the run's seed.
 *
 * - Refused: a value breaking a constraint of the catalogue. The catalogue refuses only what both forms refuse.
 * - Allowed: a value keeping a constraint where both forms constrain the location alike (formsAgreeAt), at its
 *   bound (a string of maxLength or minLength characters, a member of the enum).
 *
 * Neither at a location carrying an id from the target: another value, or none, names nothing there (a 404 says
 * nothing of the value, and the session reads a 404 for the target's own ids as a broken fact).
 *
 * Query parameters and body fields only: the IM-* headers carry the caller's identity from the configuration, and
 * their constraints have their own checks (contracts/request-headers.spec.ts). One value per part and kind: at most
 * two of each kind per operation.
 */
import fc from 'fast-check';
import { formsAgreeAt, requestConstraintsOf, type Operation } from '../../catalogue';
import { flattenConstraints, type FlatConstraint } from '../../openapi/document-constraints';
import { ABSENT, breakingValue, keepingValue, locate, partOf, segmentsOf, setAt, type InputValue } from './input-values';

/** The parts of a request certify tries values in, in the order it tries them. */
const PARTS = ['query', 'body'] as const;
/**
 * The keywords whose kept value is a bound of a string (its maxLength, its minLength) or a member of an enum: the values an
 * input parser most often gets wrong. A number's range in the catalogue is mostly its format's (int32): its ends say
 * little of the input handling, and are left to the refused side.
 */
const BOUNDS = new Set(['maxLength', 'minLength', 'enum']);

export interface InputCase {
  /** `allowed`: both published forms allow the value; `refused`: both refuse it. */
  kind: 'allowed' | 'refused';
  /** `query pageSize`, `body lines[].endUserPrice`. */
  location: string;
  /** The constraint the value keeps or breaks, e.g. `maxLength 35`. */
  rule: string;
  /** The value, or ABSENT for a required name left out. */
  value: InputValue;
}

/** Longest value quoted whole in evidence; a longer one is quoted by its start and its length. */
const QUOTED_CHARS = 200;

/** A case in a line of evidence: `query pageSize (format int32) "AAA"`, `body customerOrderNumber (required) absent`. */
export function describeCase(c: InputCase): string {
  if (c.value === ABSENT) return `${c.location} (${c.rule}) absent`;
  const json = JSON.stringify(c.value);
  const length = typeof c.value === 'string' ? ` (${c.value.length} characters)` : '';
  return `${c.location} (${c.rule}) ${json.length > QUOTED_CHARS ? `${json.slice(0, QUOTED_CHARS)}…` : json}${length}`;
}

/** A seed of its own per operation: the same run seed draws each operation's values apart, the same each run. */
function seedOf(seed: number, operationId: string): number {
  let h = seed | 0;
  for (const ch of operationId) h = (Math.imul(h, 31) + ch.charCodeAt(0)) | 0;
  return h >>> 0;
}

/** Whether a location carries an id the operation takes from the target. */
const namesAnId = (op: Pick<Operation, 'needs'>, location: string): boolean =>
  op.needs.some((n) => n.in !== 'path' && (location === `${n.in} ${n.as}` || location.endsWith(`.${n.as}`)));

/** One case per part, drawn from the constraints of that part the value derivation can serve. */
function drawPerPart(candidates: readonly InputCase[], rng: number): InputCase[] {
  const out: InputCase[] = [];
  for (const part of PARTS) {
    const here = candidates.filter((c) => partOf(c.location) === part);
    if (here.length) out.push(here[fc.sample(fc.nat(here.length - 1), { seed: rng + out.length, numRuns: 1 })[0] ?? 0] as InputCase);
  }
  return out;
}

/** The values certify tries in an operation's input with a run's seed; none for an operation no form documents. */
export function inputCasesOf(op: Pick<Operation, 'id' | 'needs'>, seed: number): { allowed: InputCase[]; refused: InputCase[] } {
  const set = requestConstraintsOf(op.id);
  if (!set) return { allowed: [], refused: [] };
  const rng = seedOf(seed, op.id);
  const constraints = flattenConstraints(set).filter((c) => (PARTS as readonly string[]).includes(partOf(c.location)));
  const caseOf = (kind: InputCase['kind'], c: FlatConstraint, value: InputValue | undefined): InputCase[] =>
    value === undefined
      ? []
      : [{ kind, location: c.location, rule: c.keyword === 'required' ? 'required' : `${c.keyword} ${c.value}`, value }];
  // The catalogue holds what both forms refuse: its node stands for the form giving the constraint and for both merged.
  const target = (c: FlatConstraint) => {
    const node = locate(set, c.location) ?? {};
    return { c, node, merged: node };
  };
  const valued = constraints.filter((c) => !namesAnId(op, c.location));
  const refused = valued.flatMap((c) => caseOf('refused', c, breakingValue(target(c), rng)));
  const allowed = valued
    .filter((c) => BOUNDS.has(c.keyword) && formsAgreeAt(op.id, c.location))
    .flatMap((c) => caseOf('allowed', c, keepingValue(target(c), rng)));
  return { allowed: drawPerPart(allowed, rng), refused: drawPerPart(refused, rng + 1) };
}

/** What a call with a case's value changes in the operation's valid request (session CallOptions). */
export function callChangeOf(
  c: InputCase,
  operationId: string,
): { query?: Record<string, string>; omitQuery?: string[]; editBody?: (valid: unknown) => unknown } {
  if (partOf(c.location) === 'query') {
    const name = c.location.slice('query '.length).replace(/\[\]$/, '');
    return c.value === ABSENT ? { omitQuery: [name] } : { query: { [name]: String(c.value) } };
  }
  const schema = requestConstraintsOf(operationId)?.body;
  return { editBody: (valid) => setAt(valid, segmentsOf(c.location), c.value, schema) };
}

/**
 * What an answer says of the value: served (2xx), refused (400, or 422 Unprocessable), or why it says nothing
 * of the value: a token answer, an unknown id, the rate limit, any other status.
 */
export function readingOf(status: number): 'served' | 'refused' | string {
  if (status >= 200 && status < 300) return 'served';
  if (status === 400 || status === 422) return 'refused';
  if (status === 401 || status === 403) return `${status}: a token answer, not a refusal of the value`;
  if (status === 404) return '404: an unknown id, not a refusal of the value';
  if (status === 429) return '429: the rate limit, not a refusal of the value';
  return `${status}: says nothing of the value`;
}
