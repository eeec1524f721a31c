/**
 * Imports a user's OpenAPI 3.0 or 3.1 document (YAML or JSON, $ref chains, nullable, oneOf/allOf)
 * through a maintained parser and dereferencer, maps its operations to the catalogue tolerantly,
 * validates response bodies against its schemas, reports coverage, conflicts with the spec
 * (findings) and the document's own defects (examples that do not match their schemas).
 */
import SwaggerParser from '@apidevtools/swagger-parser';
import { allOperations, type Operation } from '../catalogue';
import type { Doc } from './import/document-shapes';
import type { OpenApiContract } from './import/openapi-contract';
import { schemaCompiler } from './import/json-schema';
import { absentOperations, importDocument } from './import/document-operations';
import { contractOf } from './import/contract';

export async function loadOpenApi(file: string, ops: readonly Operation[] = allOperations()): Promise<OpenApiContract> {
  const { doc, version } = await readDocument(file);
  const compile = schemaCompiler();
  const imported = importDocument(doc, version, ops, compile);
  // Only a document about this API says anything about operations it lacks.
  if (imported.mapped.length) imported.conflicts.push(...absentOperations(ops, imported.paths, file));
  return contractOf(file, version, ops, imported, compile);
}

/** The dereferenced document and its OpenAPI version (3.0 or 3.1). */
async function readDocument(file: string): Promise<{ doc: Doc; version: string }> {
  let doc: Doc;
  try {
    doc = (await SwaggerParser.dereference(file)) as Doc;
  } catch (e) {
    throw new Error(`OPENAPI=${file} could not be read as an OpenAPI document: ${(e as Error).message.split('\n')[0]}`, { cause: e });
  }
  const version = doc.openapi ?? '';
  if (!/^3\.[01]/.test(version)) throw new Error(`OPENAPI=${file} is OpenAPI "${version || 'unknown'}"; expected 3.0 or 3.1`);
  return { doc, version };
}
