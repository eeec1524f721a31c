/** Shim of `k6/execution` for the k6 double. Like k6, it refuses execution details in the init context. */
import { rt } from './bridge';

function vuOnly<T>(what: string, get: () => T): T {
  if (rt().phase() === 'init') throw new Error(`getting ${what} information outside of the VU context is not supported`);
  return get();
}

const execution = {
  get scenario() {
    return vuOnly('scenario', () => rt().execution.scenario);
  },
  get vu() {
    return vuOnly('VU', () => rt().execution.vu);
  },
  get instance() {
    return vuOnly('instance', () => rt().execution.instance);
  },
  get test() {
    return {
      get options() {
        return vuOnly('test options', () => rt().execution.test.options);
      },
      abort(msg?: string): never {
        return rt().abort(`test aborted${msg ? `: ${msg}` : ''}`);
      },
    };
  },
};
export default execution;
