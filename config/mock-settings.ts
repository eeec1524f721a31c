/** The embedded mock's configuration from the environment (MOCK_WINDOW_MS, MOCK_DRIFT, MOCK_SEED, MOCK_REQUESTS, MOCK_APPS). */
import { setting, type Env } from './settings';
import type { HarnessConfig } from './harness-config';

/** The embedded mock's configuration, its apps (MOCK_APPS) checked. */
export function mockConfigFrom(env: Env): HarnessConfig['mock'] {
  return {
    windowMs: setting(env, 'MOCK_WINDOW_MS'),
    drift: setting(env, 'MOCK_DRIFT'),
    apps: setting(env, 'MOCK_APPS'),
    seed: setting(env, 'MOCK_SEED'),
    requests: setting(env, 'MOCK_REQUESTS'),
  };
}
