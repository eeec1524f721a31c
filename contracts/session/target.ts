/**
 * The target of the run: a URL from the configuration, or the embedded mock started in this worker
 * (a compressed window, the drift modes MOCK_DRIFT names, its control API).
 */
import { DEFAULT_WINDOW_MS, operationsFor, type Operation } from '../../catalogue';
import { runConfig } from '../../config/read-config';
import type { HarnessConfig } from '../../config/harness-config';
import { registerSecret } from '../../clients/redact';
import type { RunningMock } from '../../mock';
import type { MockLayer } from '../../mock/ground/mock-layer';

export interface Target {
  config: HarnessConfig;
  baseUrl: string;
  isMock: boolean;
  /** Compressed on the mock; the spec's minute elsewhere. */
  windowMs: number;
  operations: Operation[];
  /** The mock's control API (mock only). */
  control?: (method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown) => Promise<unknown>;
}

/** The harness configuration (read once per process); throws the configuration error, which scripts/certify.ts surfaced before the run, in every test. */
export function harnessConfig(): HarnessConfig {
  return runConfig();
}

/** Operations selected for this run (configured vendor list, families). */
export function selectedOperations(cfg: HarnessConfig = harnessConfig()): Operation[] {
  return operationsFor(cfg);
}

/**
 * Starts the target (the embedded mock, or none for a URL target), hands it to `use`, then stops it. The
 * embedded mock serves the drift modes MOCK_DRIFT names, fixed for the run, unless a layer is given.
 */
export async function provideTarget(mockLayer: MockLayer | undefined, use: (target: Target) => Promise<void>): Promise<void> {
  const cfg = harnessConfig();
  let mock: RunningMock | undefined;
  let baseUrl = cfg.baseUrl;
  if (cfg.kind === 'mock') {
    // Loaded only for the embedded mock: a worker against a URL target starts without the server.
    const { startMock, parseRequestMode, fixedDrift } = await import('../../mock');
    mock = await startMock({
      requests: parseRequestMode(cfg.mock.requests, 'MOCK_REQUESTS'),
      windowMs: cfg.mock.windowMs,
      control: true,
      layer: mockLayer ?? fixedDrift(cfg.mock.drift),
      seed: cfg.mock.seed,
      vendorOperations: cfg.vendorOperations,
      ...(cfg.mock.apps ? { apps: cfg.mock.apps } : {}),
    });
    baseUrl = mock.url;
    for (const a of cfg.mock.apps ?? []) registerSecret(a.clientSecret);
  }
  for (const c of Object.values(cfg.credentials)) registerSecret(c?.clientSecret);
  registerSecret(cfg.secondReseller?.clientSecret);
  const control = mock
    ? async (method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown) => {
        const r = await fetch(`${mock.url}/__mock${path}`, {
          method,
          headers: body === undefined ? {} : { 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        return r.json();
      }
    : undefined;
  await use({
    config: cfg,
    baseUrl: baseUrl as string,
    isMock: !!mock,
    windowMs: mock ? cfg.mock.windowMs : DEFAULT_WINDOW_MS,
    operations: selectedOperations(cfg),
    ...(control ? { control } : {}),
  });
  await mock?.close();
}
