/** Drift of the operations' answer bodies: published shapes broken, fields a client needs renamed. */
import type { Answer } from './answer';
import type { DriftEffect, DriftId } from './index';

type Rec = Record<string, unknown>;

/** The successful answers of one operation, rewritten. */
const answerOf =
  (operationId: string, rewrite: (a: Answer) => void) =>
  (a: Answer): void => {
    if (a.operationId === operationId && a.status < 300) rewrite(a);
  };

/** The object with one field renamed (first, as a renamed field would be written). */
function renamed(o: Rec, from: string, to: string): Rec {
  if (!(from in o)) return o;
  const { [from]: v, ...rest } = o;
  return { [to]: v, ...rest };
}

/** The successful answers of one operation with their body object rewritten. */
const bodyOf = (operationId: string, rewrite: (b: Rec) => Rec) =>
  answerOf(operationId, (a) => {
    const b = a.object();
    if (b) a.setJson(rewrite(b));
  });

const searchRenamed = bodyOf('catalog.search', (b) =>
  Array.isArray(b.catalog) ? { ...b, catalog: (b.catalog as Rec[]).map((x) => renamed(x, 'ingramPartNumber', 'partNumber')) } : b,
);
const detailsRenamed = bodyOf('orders.details', (b) => renamed(b, 'ingramOrderNumber', 'orderNumber'));

export const SHAPE_DRIFT = {
  'finding.vendor-list-answer': {
    // No document gives a vendor answer's shape: another one (a top-level list) is recorded, not failed.
    answer: (a) => {
      const items = a.object()?.items;
      if (a.operationId?.startsWith('vendor.') && a.status < 300 && Array.isArray(items)) a.setJson(items);
    },
  },
  'shapes.field-renamed': {
    // No document requires these fields: their absence is the finding shapes.expected-field-absent, not a failure.
    answer: (a) => {
      searchRenamed(a);
      detailsRenamed(a);
    },
  },
  'shapes.pna-object': {
    // The published top-level array answered as an object.
    answer: answerOf('catalog.priceAndAvailability', (a) => {
      const products = a.json();
      if (Array.isArray(products)) a.setJson({ products });
    }),
  },
  'orders.created-unknown': {
    // The number answered is not the one stored, so order details do not know it.
    answer: answerOf('orders.create', (a) =>
      a.editObject((b) => {
        for (const o of Array.isArray(b.orders) ? (b.orders as Rec[]) : []) {
          const stored = String(o.ingramOrderNumber);
          o.ingramOrderNumber = `${stored}9`;
          if (Array.isArray(o.links)) {
            o.links = (o.links as Rec[]).map((l) => ({ ...l, href: String(l.href).replace(`/${stored}`, `/${stored}9`) }));
          }
        }
      }),
    ),
  },
} as const satisfies { [id in DriftId]?: DriftEffect };
