/**
 * Drift of one environment: the sandbox refuses a spent bucket with a plain-text body instead of the error
 * body; production keeps the spec's. Only a bucket spent in the sandbox itself shows it.
 */
import { TOO_MANY_REQUESTS_MESSAGE } from '../../catalogue/rules';
import type { DriftEffect, DriftId } from './index';

export const SANDBOX_429_DRIFT = {
  '429.sandbox-plain-text': {
    answer: (a) => {
      if (a.status === 429 && a.path.startsWith('/sandbox/')) a.setText('text/plain', TOO_MANY_REQUESTS_MESSAGE);
    },
  },
} as const satisfies { [id in DriftId]?: DriftEffect };
