/** The document as the comparison reads it, and the differences it reports. */

import type { ParameterObject, Schema } from '../openapi-objects';
type PathItem = Record<string, unknown> & { parameters?: ParameterObject[] };
/** A dereferenced OpenAPI 3.x document, as far as the comparison reads it. */
export type OpenApiDocument = { openapi?: string; paths?: Record<string, PathItem>; components?: { schemas?: Record<string, Schema> } };

export type DifferenceKind = 'operation' | 'parameter' | 'request' | 'response' | 'schema';

export interface DocumentDifference {
  kind: DifferenceKind;
  /** The operation, parameter, body or component schema, and the path inside its schema: `POST /x request .lines[].quantity`. */
  where: string;
  /** How the two disagree: `only in a`, `type object in a, array in b`, `required in a, optional in b`, `maxLength 32 in a, absent in b`. */
  detail: string;
}

export interface DocumentDiff {
  a: string;
  b: string;
  operations: { a: number; b: number; common: number };
  differences: DocumentDifference[];
}
