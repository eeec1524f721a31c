/**
 * Certify fails only what the published document refuses: each answer schema certify validates with (the
 * catalogue's) allows every answer the document's response schema allows for the same documented success
 * status, in both published forms (where they disagree, what either allows). Read node by node
 * (stricter-than-document.ts). What a client needs beyond the document (ids, paging, lists) is the finding
 * shapes.expected-field-absent, not a schema's `required`.
 *
 * The forms' paths come from VENDOR_OPENAPI and VENDOR_OPENAPI_JSON (`.ci/run` sets them); without one its
 * test is skipped with the reason.
 */
import SwaggerParser from '@apidevtools/swagger-parser';
import { test, expect } from '@playwright/test';
import { allOperations, ANSWER_FACTS, isOperationId, type Operation } from '../../catalogue';
import { schemaById, schemaId } from '../../catalogue/schemas';
import { loadOpenApi } from '../../openapi/import';
import { jsonOf, type Doc } from '../../openapi/import/document-shapes';
import type { OperationObject } from '../../openapi/openapi-objects';
import { toJsonSchema } from '../../openapi/import/json-schema';
import { stricterThanDocument } from './stricter-than-document';

const FORMS = [
  { variable: 'VENDOR_OPENAPI', form: 'YAML', file: process.env.VENDOR_OPENAPI },
  { variable: 'VENDOR_OPENAPI_JSON', form: 'JSON', file: process.env.VENDOR_OPENAPI_JSON },
] as const;

type Schema = Parameters<typeof stricterThanDocument>[0];

/** Each documented success status of an operation with the catalogue's answer schema for it (none: no body or no schema). */
function answerSchemas(op: Operation): [number, string][] {
  const other = isOperationId(op.id) ? ANSWER_FACTS[op.id].otherSuccess : {};
  const all: [number, string | null | undefined][] = [
    [op.successStatus, op.responseSchema],
    ...Object.entries(other).map(([s, n]) => [Number(s), n && schemaId(n)] as [number, string | null]),
  ];
  return all.flatMap(([s, n]) => (n ? [[s, n] as [number, string]] : []));
}

/**
 * The document's schema as JSON Schema; as written where it cannot be converted (the JSON form's quote create
 * 201 types four fields `date`, a defect the import reports): OpenAPI 3.0's nullable is read as null allowed.
 */
function readable(schema: unknown, version: string): unknown {
  try {
    return toJsonSchema(schema, version);
  } catch {
    return schema;
  }
}

test.describe('the answer schemas certify validates with', () => {
  for (const { variable, form, file } of FORMS) {
    test(`should allow every answer the ${form} form of the published document allows`, async () => {
      test.skip(
        !file,
        `${variable} is not set: give the path of the ${form} form of the distributor's published OpenAPI document (\`.ci/run\` sets it)`,
      );
      const c = await loadOpenApi(file as string);
      const doc = (await SwaggerParser.dereference(file as string)) as Doc;
      const compared: string[] = [];
      const stricter: string[] = [];
      for (const op of allOperations()) {
        const at = c.documentedPath(op.id);
        const documented = at ? (doc.paths?.[at.path]?.[at.method.toLowerCase()] as OperationObject | undefined) : undefined;
        for (const [status, name] of answerSchemas(op)) {
          const theirs = jsonOf(documented?.responses?.[String(status)]?.content)?.schema;
          if (!theirs) continue;
          compared.push(`${op.id} ${status}`);
          const published = readable(theirs, doc.openapi ?? '3.0');
          for (const p of stricterThanDocument(schemaById(name) as Schema, published as Schema)) stricter.push(`${op.id} ${status} ${p}`);
        }
      }
      expect(compared.length, `answer schemas compared: ${compared.join(', ')}`).toBeGreaterThanOrEqual(20);
      expect(stricter, `where certify would fail an answer the ${form} form allows`).toEqual([]);
    });
  }
});
