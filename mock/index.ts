export { buildMockApp, DEFAULT_APPS, DEFAULT_BODY_LIMIT, MIN_WINDOW_MS } from './app';
export type { MockApp, MockOptions, ResponseBodyHook } from './app';
export { startMock } from './server';
export type { RunningMock } from './server';
export { ManualClock, SwitchableClock, systemClock } from './clock';
export type { Clock } from './clock';
export { DRIFT_MODES, DRIFT_IDS, parseDrift } from './drift';
export type { DriftMode } from './drift';
export { signEventId } from './webhooks';
