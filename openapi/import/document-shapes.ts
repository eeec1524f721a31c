/** The shapes of the document as read, and of what the import gathers from it by catalogue operation. */
import type { ValidateFunction } from 'ajv';
import type { Finding } from '../../reporting/report-shapes';
import type { MediaObject, OperationObject } from '../openapi-objects';
import type { DocumentDefect, DocumentedParameter, OpenApiCoverage } from './openapi-contract';

export type Doc = { openapi?: string; servers?: { url: string }[]; paths?: Record<string, Record<string, unknown>> };

export const jsonOf = (content: Record<string, MediaObject> | undefined): MediaObject | undefined =>
  Object.entries(content ?? {}).find(([ct]) => /json/i.test(ct))?.[1];
export const examplesOf = (m: MediaObject | undefined): [string, unknown][] => [
  ...(m?.example !== undefined ? [['example', m.example] as [string, unknown]] : []),
  ...Object.entries(m?.examples ?? {})
    .filter(([, e]) => e?.value !== undefined)
    .map(([k, e]) => [`example "${k}"`, e.value] as [string, unknown]),
];

export type RequestDoc = { schema?: Record<string, unknown>; example?: unknown; required: boolean };
export type Compile = (schema: Record<string, unknown>) => ValidateFunction | Error;
export type ReadSchema = (where: string, schema: unknown) => Record<string, unknown> | undefined;

/** What the document says, by catalogue operation id, with its conflicts with the spec and its own defects. */
export interface Imported {
  documented: number;
  mapped: OpenApiCoverage['mapped'];
  notInCatalogue: string[];
  schemas: Map<string, Record<string, Record<string, unknown>>>;
  examples: Map<string, unknown>;
  requests: Map<string, RequestDoc>;
  params: Map<string, DocumentedParameter[]>;
  paths: Map<string, { method: string; path: string }>;
  conflicts: Finding[];
  defects: DocumentDefect[];
}

/** One documented operation: where it sits in the document. */
export interface DocumentedOperation {
  path: string;
  /** Upper case. */
  method: string;
  label: string;
  item: Record<string, unknown>;
  o: OperationObject;
}
