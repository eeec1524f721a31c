/**
 * The ledger of documented facts the harness judges and the places each applies: an operation (or a family's token
 * endpoint) in an environment. Each contract check declares the (fact, place) pairs it judges beside the requests it
 * plans; the run records for every pair whether it was judged, and the summary says where it did not look. Facts of
 * the seed and of the published document only. Pure data: no node:*, no process.env.
 */
import { ANSWER_FACTS } from './answers';
import { ENVIRONMENTS, type EnvironmentName } from './environments';
import { isOperationId, type Family, type Operation } from './operations';
import { isPagedSearch } from './paging';

/** A place a fact applies at: an operation or a family's token endpoint (`token.<family>`), in an environment. */
export interface FactPlace {
  readonly fact: string;
  readonly place: string;
  readonly environment: EnvironmentName;
}

/** What judging a fact at one place costs: a few calls, or the place's whole bucket (PROBE_LIMITS). */
export type FactCost = 'calls' | 'bucket';

export interface FactDefinition {
  readonly id: string;
  readonly statement: string;
  readonly cost: FactCost;
  /** Whether the fact applies to an operation; token facts apply to the token endpoints instead. */
  readonly appliesTo: (op: Operation) => boolean;
  /** True for a fact of the token endpoints (one place per family and environment). */
  readonly tokens?: true;
}

const every = (): boolean => true;
const none = (): boolean => false;
/** A repeated valid call is the same call only where it changes nothing. */
const repeatable = (op: Operation): boolean => op.readOnly;
const echoes = (op: Operation): boolean => isOperationId(op.id) && ANSWER_FACTS[op.id].echoes.length > 0;

/** The documented filters of the searches on a whole value (or a part, where the document says so), each its own fact. */
const FILTER_FACTS: FactDefinition[] = [...new Set(Object.values(ANSWER_FACTS).flatMap((a) => a.filters.map((f) => f.query)))].map(
  (query) => ({
    id: `search.filter.${query}`,
    statement: `a search filtered by its documented ${query} lists only items whose ${query} ${
      Object.values(ANSWER_FACTS).some((a) => a.filters.some((f) => f.query === query && f.inPart)) ? 'contains' : 'is'
    } the value asked`,
    cost: 'calls',
    appliesTo: (op: Operation) => isOperationId(op.id) && ANSWER_FACTS[op.id].filters.some((f) => f.query === query),
  }),
);

/** Every fact of the ledger. */
export const FACTS: readonly FactDefinition[] = [
  {
    id: 'answer.valid-call',
    statement: 'a valid call is answered with the documented 2xx status and JSON matching the published schema',
    cost: 'calls',
    appliesTo: every,
  },
  {
    id: 'headers.present',
    statement: 'every answer carries X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset as integers',
    cost: 'calls',
    appliesTo: every,
  },
  {
    id: 'headers.remaining-steps',
    statement: 'X-RateLimit-Remaining falls by one per call, Reset and Limit stay the same within a window',
    cost: 'calls',
    appliesTo: repeatable,
  },
  {
    id: 'headers.reset-unit',
    statement: 'X-RateLimit-Reset is read in one unit on every operation of both families ("one rate-limit scheme")',
    cost: 'calls',
    appliesTo: every,
  },
  {
    id: 'auth.token-required',
    statement: 'a call without a token or with a token the target never issued is refused',
    cost: 'calls',
    appliesTo: every,
  },
  {
    id: 'answer.about-asked',
    statement: 'an answer is about what was asked: the key the request named comes back',
    cost: 'calls',
    appliesTo: echoes,
  },
  {
    id: 'paging.as-published',
    statement: 'pageSize bounds the entries of a page, pageNumber is the page, recordsFound the records the pages hold',
    cost: 'calls',
    appliesTo: (op) => isPagedSearch(op.id),
  },
  ...FILTER_FACTS,
  {
    id: 'limit.honoured',
    statement: 'exactly the advertised X-RateLimit-Limit calls are allowed in a window, then 429',
    cost: 'bucket',
    appliesTo: every,
  },
  {
    id: '429.error-body',
    statement: 'a call over the limit is answered 429 with the JSON error body (errors[] of field and message)',
    cost: 'bucket',
    appliesTo: every,
  },
  {
    id: '429.headers',
    statement: 'a 429 carries the three rate-limit headers, Remaining 0 and Limit as advertised',
    cost: 'bucket',
    appliesTo: every,
  },
  {
    id: 'token.as-documented',
    statement:
      'the token endpoint issues a Bearer token with integer expires_in for valid credentials, refuses invalid ones, and sends the rate-limit headers',
    cost: 'calls',
    appliesTo: none,
    tokens: true,
  },
];

/** Whether the fact `id` applies to the operation. */
export const factApplies = (id: string, op: Operation): boolean => FACTS.some((f) => f.id === id && f.appliesTo(op));

/** The token endpoint of a family as a place of the ledger. */
export const tokenPlace = (family: Family): string => `token.${family}`;

/** The family a place belongs to: its operation's, or its token endpoint's. */
export function familyOfPlace(place: string, operations: readonly Operation[]): Family | undefined {
  if (place.startsWith('token.')) return place.slice('token.'.length) as Family;
  return operations.find((o) => o.id === place)?.family;
}

/** Every (fact, place) pair of the catalogue: each fact at each operation (or token endpoint) it applies to, in each environment. */
export function factPlaces(operations: readonly Operation[], environments: readonly EnvironmentName[] = ENVIRONMENTS): FactPlace[] {
  const families = [...new Set(operations.map((o) => o.family))];
  const pairs: FactPlace[] = [];
  for (const f of FACTS) {
    const places = f.tokens ? families.map(tokenPlace) : operations.filter((o) => f.appliesTo(o)).map((o) => o.id);
    for (const environment of environments) for (const place of places) pairs.push({ fact: f.id, place, environment });
  }
  return pairs;
}

/** The key of a pair in a ledger. */
export const pairKey = (p: FactPlace): string => `${p.fact}|${p.place}|${p.environment}`;
