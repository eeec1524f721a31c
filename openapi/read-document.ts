/** Reading an OpenAPI document: one rule for the reader (import/) and the comparison (diff/). */
import SwaggerParser from '@apidevtools/swagger-parser';

/** A document that cannot be read or is not OpenAPI 3.0 or 3.1 (the commands exit 2 with its message). */
export class UnreadableDocument extends Error {
  override name = 'UnreadableDocument';
}

/**
 * The document at `file` (YAML or JSON), dereferenced by a maintained parser, if it is OpenAPI 3.0 or 3.1;
 * `label` names it in the error (the file, or the variable that gave it: `OPENAPI=<file>`).
 */
export async function readOpenApiDocument<T extends { openapi?: string }>(file: string, label = file): Promise<T> {
  let doc: T;
  try {
    doc = (await SwaggerParser.dereference(file)) as unknown as T;
  } catch (e) {
    throw new UnreadableDocument(`${label} could not be read as an OpenAPI document: ${(e as Error).message.split('\n')[0]}`, {
      cause: e,
    });
  }
  if (!/^3\.[01]/.test(doc.openapi ?? ''))
    throw new UnreadableDocument(`${label} is OpenAPI "${doc.openapi || 'unknown'}"; expected 3.0 or 3.1`);
  return doc;
}
