/** setup() and teardown() run as k6 runs them. */
import { parseDuration } from '../../../common/k6-duration';
import { EXIT, RunError, TestAbort } from './run-result';
import type { ScriptModule, ScriptOptions } from './script';

/** k6's default setupTimeout (lib/options.go). */
const DEFAULT_SETUP_TIMEOUT = '60s';

/** Runs setup() as k6 does: within setupTimeout, its data handed to the VUs as a JSON copy. */
export function runSetup(mod: ScriptModule, o: ScriptOptions): unknown {
  try {
    const setupStarted = performance.now();
    const data = mod.setup?.();
    // k6 interrupts a setup() longer than setupTimeout; the double's runs to its end, then fails as k6 would have.
    const limitMs = parseDuration(o.setupTimeout ?? DEFAULT_SETUP_TIMEOUT);
    if (performance.now() - setupStarted > limitMs)
      throw new RunError(
        `setup() execution timed out after ${limitMs / 1000} seconds (setupTimeout ${o.setupTimeout ?? `${DEFAULT_SETUP_TIMEOUT}, k6's default`})`,
        EXIT.setupTimeout,
      );
    // k6 hands setup data to VUs as a JSON copy.
    return data === undefined ? undefined : JSON.parse(JSON.stringify(data));
  } catch (e) {
    if (e instanceof RunError) throw e;
    if (e instanceof TestAbort) throw new RunError(e.message, EXIT.scriptAborted);
    throw new RunError(`setup failed: ${(e as Error).message}`, EXIT.scriptException);
  }
}

export function runTeardown(mod: ScriptModule, data: unknown): void {
  try {
    mod.teardown?.(data);
  } catch (e) {
    throw new RunError(`teardown failed: ${(e as Error).message}`, EXIT.scriptException);
  }
}
