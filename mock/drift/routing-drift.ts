/** Drift of routing: paths the spec serves answered 404, JSON answered as text. */
import { errorOf } from '../ground/errors';
import type { Answer } from './answer';
import type { DriftEffect, DriftId } from './index';

/** Answers of these paths become the mock's 404 for an unknown path. */
const notServed =
  (when: (a: Answer) => boolean) =>
  (a: Answer): void => {
    if (!when(a)) return;
    a.status = 404;
    a.setJson(errorOf('noRoute'));
  };

export const ROUTING_DRIFT = {
  'routing.no-sandbox': { answer: notServed((a) => a.path.startsWith('/sandbox/')) },
  'routing.v61-missing': { answer: notServed((a) => a.operationId !== undefined && a.path.includes('/v6.1/')) },
  'routing.non-json-content-type': {
    // The operations' answers (not their refusals) labelled as text.
    answer: (a) => {
      if (a.operationId !== undefined && a.status < 300) a.setHeader('content-type', 'text/plain');
    },
  },
} as const satisfies { [id in DriftId]?: DriftEffect };
