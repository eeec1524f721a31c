/** The mock's entry point: what the harness, its commands and its tests use of it. */
export { buildMockApp } from './app/app';
export type { MockOptions } from './context/mock-options';
export { startMock } from './app/server';
export type { RunningMock } from './app/server';
export { ManualClock } from './ground/clock';
export { DRIFT_MODES } from './drift';
export { DriftLayer } from './drift/drift-layer';
export { fixedDrift } from './drift/fixed-drift';
export { HANDLERS } from './api/handlers/by-operation';
export { signEventId } from './api/webhooks';
export { parseRequestMode, VIOLATIONS_HEADER } from './checks/request-violations';
export type { Violation } from './checks/request-violations';
