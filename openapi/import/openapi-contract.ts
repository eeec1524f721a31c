/** The contract an imported OpenAPI document gives: its coverage, findings and defects, and its validators. */
import type { Finding } from '../../reporting/report-shapes';

export interface OpenApiCoverage {
  file: string;
  openapiVersion: string;
  documentedOperations: number;
  mapped: { operationId: string; method: string; path: string }[];
  /** Catalogue operations without a documented 2xx JSON response schema. */
  catalogueWithoutSchema: string[];
  /** Documented operations that match no catalogue operation. */
  documentedNotInCatalogue: string[];
  bodiesValidated: number;
  bodiesFailed: number;
}

/** A documented parameter of a mapped operation. */
export interface DocumentedParameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  schema?: Record<string, unknown>;
  example?: unknown;
}

/** An example of the document that does not match its own schema, or a schema requiring a name it does not declare. */
export interface DocumentDefect {
  /** e.g. `POST /resellers/v6/orders request example` or `GET /resellers/v6/orders/search 200 example "ok"`. */
  where: string;
  errors: string[];
}

export interface OpenApiContract {
  coverage(): OpenApiCoverage;
  findings(): Finding[];
  /** Validates a response body against the document's schema for the operation and status. */
  validateResponse(operationId: string, status: number, body: unknown): { validated: boolean; errors: string[] };
  /** The document's 2xx JSON schema of an operation (JSON Schema), for generating bodies. */
  responseSchema(operationId: string): Record<string, unknown> | undefined;
  /** The document's 2xx JSON example of an operation, when it gives one. */
  responseExample(operationId: string): unknown;
  /** The document's JSON request body schema (JSON Schema), its example, and whether the body is required. */
  request(operationId: string): { schema?: Record<string, unknown>; example?: unknown; required: boolean } | undefined;
  /** Validates a request body against the document's request schema. */
  validateRequest(operationId: string, body: unknown): string[];
  /** The document's parameters of a mapped operation (path item and operation level). */
  parameters(operationId: string): DocumentedParameter[];
  /** The document's path and method of a mapped operation. */
  documentedPath(operationId: string): { method: string; path: string } | undefined;
  /** Examples of the document that contradict its own schemas. */
  defects(): DocumentDefect[];
  /**
   * What the document refuses in a request to a mapped operation: a required header or query parameter
   * absent, a header or query value its schema does not allow (maxLength, pattern, enum, format, type),
   * a body its request schema does not allow. Empty for an unmapped operation.
   */
  requestProblems(operationId: string, req: { headers: Record<string, string>; query: Record<string, string>; body?: unknown }): string[];
}
