/**
 * The drift modes a run names (MOCK_DRIFT, `npm run mock -- --drift`), fixed for the mock's life: what
 * certify's embedded mock serves. Switching modes at run time (the control API's PUT /__mock/drift) is the
 * detection matrix's, which builds its own switchable layer (`new DriftLayer(ids, true)`).
 */
import type { MockLayer } from '../ground/mock-layer';
import { DriftLayer } from './drift-layer';

/** A layer of the modes `ids` names (none: the conforming mock) that refuses to switch them. */
export function fixedDrift(ids: readonly string[]): MockLayer {
  const drift = new DriftLayer(ids, false);
  return {
    leniency: drift.leniency,
    applyChoices: (own) => drift.applyChoices(own),
    register: (app, clock) => drift.register(app, clock),
    active: () => drift.active(),
    switchTo(next) {
      throw new Error(
        `expected no switch: this mock's drift modes are fixed for its life (${drift.active().join(', ') || 'none'}), received ${next.join(', ') || 'none'}; start it with the modes wanted (MOCK_DRIFT)`,
      );
    },
  };
}
