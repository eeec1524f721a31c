/**
 * Drift: a lookup answers about another key. Every answer field that names what a lookup was asked for
 * (catalogue/answers.ts: the part number of product details, the order number of order details, ...)
 * carries another value of the same shape, as a backend that served another record would.
 */
import { ANSWER_FACTS, isOperationId } from '../../catalogue';
import type { DriftEffect, DriftId } from './index';

/** The same value with its last character changed: same length and alphabet, another key. */
export const otherKey = (v: string): string => `${v.slice(0, -1)}${v.endsWith('0') ? '1' : '0'}`;

export const OTHER_KEY_DRIFT = {
  'answers.other-key': {
    answer: (a) => {
      const id = a.operationId;
      if (id === undefined || !isOperationId(id) || a.status >= 300) return;
      const fields = ANSWER_FACTS[id].echoes.flatMap((e) => (e.answered.length === 1 && e.answered[0] !== '*' ? [e.answered[0]] : []));
      if (!fields.length) return;
      a.editObject((b) => {
        for (const f of fields) if (typeof b[f as string] === 'string') b[f as string] = otherKey(b[f as string] as string);
      });
    },
  },
} as const satisfies { [id in DriftId]?: DriftEffect };
