/**
 * Identifies the limiter of one operation with designed experiments, each bounded in requests and time,
 * each in its own module of ./fingerprint/experiments/ (exhaustion, reopening, refill sampling, burst volley, window
 * refine, split, refused calls, first-window rate), run in order by ./fingerprint/coordinator.ts. Pure
 * TypeScript (no k6, no Node): the k6 probe drives it over HTTP, the unit tests drive it against the mock's
 * limiter algorithms with a manual clock.
 */
export { Fingerprinter } from './fingerprint/fingerprinter';
export { pacingFor } from './fingerprint/pacing';
export type { Algorithm, FingerprintOptions, Pacing, RateLimitFingerprint, ReadsNamed, TimelinePoint } from './fingerprint/types';
