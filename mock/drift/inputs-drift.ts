/**
 * Input handling: the published constraints on query parameters and JSON bodies (catalogue/request-constraints.ts)
 * read otherwise.
 *
 * - input.lenient: a value both published forms refuse is served (a leniency at the query and body checks), as a
 *   service that validates nothing would: the finding input.lenient.
 * - input.max-length-exclusive: a string of exactly its maxLength is refused with 400, as a parser reading the bound
 *   as exclusive would (the answer rewritten after the mock served it): both forms allow that value.
 */
import { requestConstraintsOf, type ConstraintNode as Node } from '../../catalogue';
import { errorOf } from '../ground/errors';
import type { Answer } from './answer';
import type { DriftEffect, DriftId } from './index';

/** Whether a string sits at the node's maxLength. */
const atMaxLength = (value: unknown, node: Node | undefined): boolean =>
  typeof value === 'string' && typeof node?.maxLength === 'number' && node.maxLength > 0 && value.length === node.maxLength;

/** The dotted path of the first string of a body at its maxLength, if any. */
function bodyFieldAtMaxLength(value: unknown, node: Node | undefined, path = ''): string | undefined {
  if (!node) return undefined;
  if (atMaxLength(value, node)) return path;
  if (value === null || typeof value !== 'object') return undefined;
  const children: [string, unknown, Node | undefined][] = Array.isArray(value)
    ? value.map((v, i) => [String(i), v, node.items as Node | undefined])
    : Object.entries(value).map(([k, v]) => [k, v, (node.properties as Record<string, Node> | undefined)?.[k]]);
  for (const [k, v, n] of children) {
    const found = bodyFieldAtMaxLength(v, n, path ? `${path}.${k}` : k);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Refuses a served call carrying a query value or a body string of exactly its maxLength. */
function refuseAtMaxLength(a: Answer): void {
  const set = a.operationId === undefined ? undefined : requestConstraintsOf(a.operationId);
  if (!set || a.status >= 300) return;
  const query = Object.entries(set.query).find(([name, node]) => atMaxLength(a.queryValue(name), node))?.[0];
  if (query !== undefined) {
    a.status = 400;
    a.setJson(
      errorOf('invalidQuery', { field: query, message: `${query} must be shorter than ${String(set.query[query]?.maxLength)} characters` }),
    );
    return;
  }
  const field = bodyFieldAtMaxLength(a.requestBody, set.body);
  if (field === undefined) return;
  a.status = 400;
  a.setJson(errorOf('invalidBody', { field: field || null, message: `Invalid request body: ${field} must be shorter than its maxLength` }));
}

export const INPUT_DRIFT = {
  'input.lenient': { leniency: 'input-beyond-constraints' },
  'input.max-length-exclusive': { answer: refuseAtMaxLength },
} as const satisfies { [id in DriftId]?: DriftEffect };
