/**
 * Drift: a search ignores its documented filter. Each search answer with a documented filter
 * (catalogue/answers.ts) lists one more item, a copy of its first whose filtered field has another
 * value, as a backend that dropped the filter would list items the filter excludes.
 */
import { ANSWER_FACTS, filteredField, isOperationId } from '../../catalogue';
import type { DriftEffect, DriftId } from './index';
import { otherKey } from './other-key-drift';

type Rec = Record<string, unknown>;

export const FILTER_IGNORED_DRIFT = {
  'answers.filter-ignored': {
    answer: (a) => {
      const id = a.operationId;
      if (id === undefined || !isOperationId(id) || a.status >= 300) return;
      for (const { items: list, field } of ANSWER_FACTS[id].filters.map(filteredField)) {
        a.editObject((b) => {
          const items = b[list];
          const first = Array.isArray(items) ? (items[0] as Rec | undefined) : undefined;
          if (!first || typeof first[field] !== 'string') return;
          b[list] = [...(items as Rec[]), { ...first, [field]: otherKey(first[field] as string) }];
        });
      }
    },
  },
} as const satisfies { [id in DriftId]?: DriftEffect };
