/**
 * Drift: a search ignores its documented filter. Each search answer with a documented filter
 * (catalogue/answers.ts) lists one more item, a copy of its first whose filtered field has another
 * value, as a backend that dropped the filter would list items the filter excludes.
 */
import { ANSWER_FACTS, filteredField, isOperationId } from '../../catalogue';
import type { Answer } from './answer';
import type { DriftEffect, DriftId } from './index';
import { otherKey } from './other-key-drift';

type Rec = Record<string, unknown>;

/** Lists one more entry in the answer's `items`: a copy of its first whose `field` has another value. */
export function listOneNotMatching(a: Answer, { items: list, field }: { readonly items: string; readonly field: string }): void {
  a.editObject((b) => {
    const items = b[list];
    const first = Array.isArray(items) ? (items[0] as Rec | undefined) : undefined;
    if (!first || typeof first[field] !== 'string') return;
    b[list] = [...(items as Rec[]), { ...first, [field]: otherKey(first[field] as string) }];
  });
}

export const FILTER_IGNORED_DRIFT = {
  'answers.filter-ignored': {
    answer: (a) => {
      const id = a.operationId;
      if (id === undefined || !isOperationId(id) || a.status >= 300) return;
      for (const f of ANSWER_FACTS[id].filters) listOneNotMatching(a, filteredField(f));
    },
  },
} as const satisfies { [id in DriftId]?: DriftEffect };
