/** The mock's entry point: what the harness, its commands and its tests use of it. */
export { buildMockApp } from './app';
export type { MockOptions } from './options';
export { startMock } from './server';
export type { RunningMock } from './server';
export { ManualClock } from './clock';
export { DRIFT_MODES } from './drift';
export { DriftLayer } from './drift/layer';
export { HANDLERS } from './handlers';
export { signEventId } from './webhooks';
export { parseRequestMode, VIOLATIONS_HEADER } from './request-violations';
export type { Violation } from './request-violations';
