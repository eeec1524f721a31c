/** Shim of `k6/execution` for the k6 double (one VU). */
import { rt } from './bridge';

const execution = {
  get scenario() {
    return rt().execution.scenario;
  },
  get vu() {
    return rt().execution.vu;
  },
  get instance() {
    return rt().execution.instance;
  },
};
export default execution;
