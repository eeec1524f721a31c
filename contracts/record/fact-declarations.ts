/**
 * The (fact, place) pairs a check declares it judges (catalogue/facts.ts), written as an annotation beside its planned
 * requests; outcomes/fact-ledger.ts reads them into the run's ledger.
 */
import type { EnvironmentName, FactPlace } from '../../catalogue';

/** The annotation type of a check's declared pairs: JSON FactsDeclared. */
export const FACTS_ANNOTATION = 'facts';

/** The pairs a check judges; `check` names a grouped check (none: the test itself). */
export interface FactsDeclared {
  check?: string;
  pairs: readonly FactPlace[];
}

/** The annotation that declares a check's pairs. */
export const factsAnnotation = (check: string | undefined, pairs: readonly FactPlace[]): { type: string; description: string } => ({
  type: FACTS_ANNOTATION,
  description: JSON.stringify({ ...(check !== undefined ? { check } : {}), pairs } satisfies FactsDeclared),
});

/** A test's details with the pairs it judges added to its plan's annotations. */
export const withFacts = <D extends { annotation: { type: string; description: string }[] }>(
  details: D,
  pairs: readonly FactPlace[],
): D => ({
  ...details,
  annotation: [...details.annotation, factsAnnotation(undefined, pairs)],
});

/** The pairs of `facts` at one place and environment. */
export const judges = (environment: EnvironmentName, place: string, ...facts: string[]): FactPlace[] =>
  facts.map((fact) => ({ fact, place, environment }));
