/** Greps of the certification's tests and grouped checks, as its titles and tags write them. */

/**
 * A grep that selects the valid-call checks of these operations, in one environment or both: the group test
 * of each environment (contracts/operations.spec.ts) and, inside it, the checks whose tags name the operations.
 */
export function validCallsOf(operations: readonly string[], environment?: 'production' | 'sandbox'): string {
  const ids = operations.map((id) => id.replace(/[.]/g, '\\.')).join('|');
  return `valid call of each operation.*${environment ? `\\(${environment}\\).*` : ''}@(${ids})( |$)`;
}
