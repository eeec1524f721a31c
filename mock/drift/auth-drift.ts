/** Drift of authentication: business calls accepted without a valid token of their family. */
import type { DriftEffect, DriftId } from './index';

export const AUTH_DRIFT = {
  'auth.no-token-accepted': { leniency: 'call-without-token' },
  'auth.garbage-token-accepted': { leniency: 'unknown-token' },
  'auth.other-family-accepted': { leniency: 'other-family-token' },
  'auth.expired-accepted': { leniency: 'expired-token' },
} as const satisfies { [id in DriftId]?: DriftEffect };
