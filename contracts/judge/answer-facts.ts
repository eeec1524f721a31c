/**
 * Whether an answer is about what was asked, with the documented status (catalogue/answers.ts): pure
 * comparisons of a request sent and its answer, each with both values for the evidence.
 */
import {
  ANSWER_FACTS,
  filteredField,
  isOperationId,
  matchesFilter,
  schemaId,
  valuesAt,
  type Echo,
  type Operation,
  type SearchFilter,
} from '../../catalogue';

/** The parts of the request that was sent (path parameters by name, query, JSON body). */
export interface SentRequest {
  readonly params: Readonly<Record<string, string>>;
  readonly query: Readonly<Record<string, string>>;
  readonly body?: unknown;
}

/** One comparison of a request value with an answer field: `answered` values that are not among `asked` contradict it. */
export interface EchoComparison {
  readonly field: string;
  readonly asked: readonly string[];
  readonly answered: readonly string[];
  readonly contradicts: boolean;
}

const askedValues = (e: Echo, sent: SentRequest): string[] => {
  if (e.asked.in === 'body') return valuesAt(sent.body, e.asked.at);
  const v = (e.asked.in === 'path' ? sent.params : sent.query)[e.asked.name];
  return v === undefined ? [] : [v];
};

const fieldName = (at: readonly string[]): string => at.map((k) => (k === '*' ? '[]' : k)).join('.') || '(answer)';

/**
 * The comparisons the catalogue declares for this operation that apply: the request carried the value
 * and the answer has the field (an optional field absent from the answer asserts nothing).
 */
export function echoComparisons(op: Operation, sent: SentRequest, answer: unknown): EchoComparison[] {
  if (!isOperationId(op.id)) return [];
  return ANSWER_FACTS[op.id].echoes.flatMap((e) => {
    const asked = askedValues(e, sent);
    const answered = valuesAt(answer, e.answered);
    if (!asked.length || !answered.length) return [];
    return [{ field: fieldName(e.answered), asked, answered, contradicts: answered.some((v) => !asked.includes(v)) }];
  });
}

/** "ingramPartNumber: asked 123, answered 456" */
export const describeComparison = (c: EchoComparison): string =>
  `${c.field}: asked ${c.asked.join(', ')}, answered ${c.answered.join(', ')}`;

/** The documented filters of a search (none for other operations). */
export const searchFilters = (op: Operation): readonly SearchFilter[] => (isOperationId(op.id) ? ANSWER_FACTS[op.id].filters : []);

/** The items of a search answer whose filtered field is present and does not match the value asked for. */
export function itemsNotMatching(f: SearchFilter, value: string, answer: unknown): string[] {
  const { items, field } = filteredField(f);
  return valuesAt(answer, [items, '*', field]).filter((v) => !matchesFilter(f, value, v));
}

/** What the document says of a 2xx status of an operation. */
export type StatusVerdict =
  | { readonly kind: 'documented'; readonly schema: string | null }
  | { readonly kind: 'undocumented'; readonly expected: readonly number[] }
  | { readonly kind: 'unknown'; readonly reason: string };

/**
 * The documented 2xx statuses of an operation and the schema of each answer. An operation the
 * document does not give (the vendor family's placeholder, quote to order) has no documented status.
 */
export function statusVerdict(op: Operation, status: number): StatusVerdict {
  if (op.source === 'assumption' || !isOperationId(op.id))
    return { kind: 'unknown', reason: `${op.id} is not in the published document: its success status is not shown` };
  const others = ANSWER_FACTS[op.id].otherSuccess;
  if (status === op.successStatus) return { kind: 'documented', schema: op.responseSchema ?? null };
  if (status in others) {
    const name = others[status];
    return { kind: 'documented', schema: name === null || name === undefined ? null : schemaId(name) };
  }
  return { kind: 'undocumented', expected: [op.successStatus, ...Object.keys(others).map(Number)] };
}
