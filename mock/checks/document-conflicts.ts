/**
 * Where the distributor's generated client and its published document disagree, the mock accepts
 * both forms and says so; with `strictDocument` (npm run mock -- --strict-document) it follows the
 * document alone and refuses the client's form with a message naming the conflict.
 *
 * - deals.details: the document requires the `vendorName` query parameter; the client has no way to send it.
 * - freight.estimate: the YAML form gives `shipToAddress` as an object; the client's model and the JSON form an
 *   array, of any length (the JSON form gives no minItems or maxItems). An array is the JSON form's: served, its
 *   items judged by the request schema (what either form allows); a one-element array holding an object is read as
 *   that object. With `strictDocument` (the YAML form, as the catalogue's requests follow it) any array is refused.
 * - returns.create `list[].invoiceDate`, orders.create `shipmentDetails.requestedDeliveryDate`: the document
 *   gives `format: date`; the client's models hold a Date and send it as a date-time
 *   (`2026-01-01T00:00:00.000Z`). Accepted as its date part.
 */
import type { FastifyRequest } from 'fastify';
import type { Operation, QueryParam } from '../../catalogue';
import { errorOf, type ErrorBody } from '../ground/errors';

export interface DocumentConflict {
  /** The document's required query parameters the client cannot send (optional unless strict). */
  readonly toleratedQuery: readonly string[];
  /**
   * Accepts the client's form (rewritten to the document's, and reported) or, strict, refuses it.
   * Runs before the body is validated.
   */
  readonly check: (req: FastifyRequest, strict: boolean, report: (message: string) => void) => ErrorBody | null;
}

const conflictBody = (field: string, message: string): ErrorBody =>
  errorOf('documentConflict', { field, message: `${message} (the mock follows the published document: --strict-document)` });

/** `YYYY-MM-DD` followed by a time, as JSON.stringify writes a Date. */
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * A conflict over `format: date` fields the client sends as date-times: `at` lists, for a body, each
 * holder of such a field (an object and the field's name) and the path to name it by.
 */
function dateTimeForDate(
  opId: string,
  at: (body: Record<string, unknown>) => readonly { holder: Record<string, unknown>; field: string; path: string }[],
): DocumentConflict {
  return {
    toleratedQuery: [],
    check: (req, strict, report) => {
      const body = req.body;
      if (!body || typeof body !== 'object') return null;
      for (const { holder, field, path } of at(body as Record<string, unknown>)) {
        const v = holder[field];
        const m = typeof v === 'string' ? DATE_TIME.exec(v) : null;
        if (!m) continue;
        const message = `${opId} ${path} as a date-time (${v}): the published document gives a date (format: date); the distributor's generated client's model sends a Date as a date-time`;
        if (strict) return conflictBody(path, message);
        report(`${message}; accepted as ${m[1]}`);
        holder[field] = m[1];
      }
      return null;
    },
  };
}

const asObject = (v: unknown): Record<string, unknown> | null =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;

export const DOCUMENT_CONFLICTS: Readonly<Record<string, DocumentConflict>> = {
  'deals.details': {
    toleratedQuery: ['vendorName'],
    check: (req, strict, report) => {
      const v = (req.query as Record<string, unknown>).vendorName;
      if (v !== undefined && v !== '') return null;
      const message =
        "deals.details without vendorName: the published document requires the vendorName query parameter; the distributor's generated client cannot send it";
      if (strict) return conflictBody('vendorName', message);
      report(`${message}; accepted`);
      return null;
    },
  },
  'freight.estimate': {
    toleratedQuery: [],
    check: (req, strict, report) => {
      const body = req.body as { shipToAddress?: unknown } | undefined;
      const ship = body?.shipToAddress;
      if (!Array.isArray(ship)) return null;
      const message = `freight.estimate shipToAddress as an array of ${ship.length}: the published document gives an object in its YAML form, an array in its JSON form; the distributor's generated client's model sends an array`;
      if (strict) return conflictBody('shipToAddress', message);
      const only = ship.length === 1 ? asObject(ship[0]) : null;
      if (only) {
        report(`${message}; its one element accepted as the object`);
        (body as { shipToAddress: unknown }).shipToAddress = only;
      } else report(`${message}; accepted as the JSON form gives it, its items judged by the request schema`);
      return null;
    },
  },
  'returns.create': dateTimeForDate('returns.create', (body) =>
    (Array.isArray(body.list) ? body.list : []).flatMap((item, i) => {
      const holder = asObject(item);
      return holder ? [{ holder, field: 'invoiceDate', path: `list[${i}].invoiceDate` }] : [];
    }),
  ),
  'orders.create': dateTimeForDate('orders.create', (body) => {
    const holder = asObject(body.shipmentDetails);
    return holder ? [{ holder, field: 'requestedDeliveryDate', path: 'shipmentDetails.requestedDeliveryDate' }] : [];
  }),
};

/** The query parameters the mock requires of an operation: the document's, less those the client cannot send unless strict. */
export function requiredQueryOf(op: Pick<Operation, 'id' | 'queryParams'>, strict: boolean): { queryParams: readonly QueryParam[] } {
  const tolerated = strict ? [] : (DOCUMENT_CONFLICTS[op.id]?.toleratedQuery ?? []);
  if (!tolerated.length) return op;
  return { queryParams: op.queryParams.map((p) => (tolerated.includes(p.name) ? { ...p, required: false } : p)) };
}
