/**
 * Imports a user's OpenAPI 3.0 or 3.1 document (YAML or JSON, $ref chains, nullable, oneOf/allOf)
 * through a maintained parser and dereferencer, maps its operations to the catalogue tolerantly,
 * validates response bodies against its schemas, reports coverage, conflicts with the spec
 * (findings) and the document's own defects (examples that do not match their schemas).
 */
import { allOperations, type Operation } from '../catalogue';
import type { Doc } from './import/document-shapes';
import type { OpenApiContract } from './import/openapi-contract';
import { schemaCompiler } from './import/json-schema';
import { absentOperations, importDocument } from './import/document-operations';
import { contractOf } from './import/contract';
import { readOpenApiDocument } from './read-document';

export async function loadOpenApi(file: string, ops: readonly Operation[] = allOperations()): Promise<OpenApiContract> {
  const doc = await readOpenApiDocument<Doc>(file, `OPENAPI=${file}`);
  const version = doc.openapi as string;
  const compile = schemaCompiler();
  const imported = importDocument(doc, version, ops, compile);
  // Only a document about this API says anything about operations it lacks.
  if (imported.mapped.length) imported.conflicts.push(...absentOperations(ops, imported.paths, file));
  return contractOf(file, version, ops, imported, compile);
}
