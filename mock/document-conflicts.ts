/**
 * Where the distributor's generated client and its published document disagree, the mock accepts
 * both forms and says so; with `strictDocument` (npm run mock -- --strict-document) it follows the
 * document alone and refuses the client's form with a message naming the conflict.
 *
 * - deals.details: the document requires the `vendorName` query parameter; the client has no way to send it.
 * - freight.estimate: the document gives `shipToAddress` as an object; the client's model sends an array
 *   (one element).
 */
import type { FastifyRequest } from 'fastify';
import type { Operation, QueryParam } from '../catalogue';
import { errorOf, type ErrorBody } from './errors';

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
      const message = `freight.estimate shipToAddress as an array of ${ship.length}: the published document gives an object; the distributor's generated client's model sends an array`;
      if (strict || ship.length !== 1)
        return conflictBody('shipToAddress', strict ? message : `${message}; only a one-element array is accepted`);
      report(`${message}; its one element accepted as the object`);
      (body as { shipToAddress: unknown }).shipToAddress = ship[0];
      return null;
    },
  },
};

/** The query parameters the mock requires of an operation: the document's, less those the client cannot send unless strict. */
export function requiredQueryOf(op: Pick<Operation, 'id' | 'queryParams'>, strict: boolean): { queryParams: readonly QueryParam[] } {
  const tolerated = strict ? [] : (DOCUMENT_CONFLICTS[op.id]?.toleratedQuery ?? []);
  if (!tolerated.length) return op;
  return { queryParams: op.queryParams.map((p) => (tolerated.includes(p.name) ? { ...p, required: false } : p)) };
}
