/**
 * The mock refuses only what the published document refuses: each request schema the mock validates with
 * (the catalogue's) allows every body the document's request schema allows, in both published forms (where
 * they disagree, what either allows). Read node by node (stricter-than-document.ts); a difference the mock
 * serves by another rule is listed here with that rule.
 *
 * The forms' paths come from VENDOR_OPENAPI and VENDOR_OPENAPI_JSON (`.ci/run` sets them); without one its
 * test is skipped with the reason.
 */
import { test, expect } from '@playwright/test';
import { allOperations } from '../../catalogue';
import { schemaById } from '../../catalogue/schemas';
import { loadOpenApi } from '../../openapi/import';
import { stricterThanDocument } from './stricter-than-document';

const FORMS = [
  { variable: 'VENDOR_OPENAPI', form: 'YAML', file: process.env.VENDOR_OPENAPI },
  { variable: 'VENDOR_OPENAPI_JSON', form: 'JSON', file: process.env.VENDOR_OPENAPI_JSON },
] as const;

/** Served by mock/checks/document-conflicts.ts, not by the schema: the JSON form's (and the client's) one-element array. */
const SERVED_ELSEWHERE: Readonly<Record<string, readonly string[]>> = { 'freight.estimate': ['/shipToAddress'] };

type Schema = Parameters<typeof stricterThanDocument>[0];

test.describe('the request schemas the mock validates with', () => {
  test('should report what a schema refuses that a document allows: a required name, a null, a type, a bound', () => {
    const doc = {
      type: 'object',
      properties: { a: { type: 'string', nullable: true }, n: { type: 'integer' }, l: { type: 'array', items: { properties: {} } } },
    };
    const ours = {
      type: 'object',
      required: ['a'],
      properties: { a: { type: 'string' }, n: { type: 'string' }, l: { type: 'array', minItems: 1, items: { type: 'object' } } },
    };
    expect(stricterThanDocument(ours as Schema, doc as Schema)).toEqual([
      '/: ours requires "a"; the document does not',
      '/a: the document allows null; ours string',
      '/n: the document allows integer; ours string',
      '/l: ours has minItems 1; the document none',
    ]);
    expect(stricterThanDocument({ ...ours, required: [] } as Schema, { ...doc, required: ['a'] } as Schema)).toHaveLength(3);
  });

  for (const { variable, form, file } of FORMS) {
    test(`should allow every request body the ${form} form of the published document allows`, async () => {
      test.skip(
        !file,
        `${variable} is not set: give the path of the ${form} form of the distributor's published OpenAPI document (\`.ci/run\` sets it)`,
      );
      const c = await loadOpenApi(file as string);
      const compared: string[] = [];
      const stricter: string[] = [];
      for (const op of allOperations()) {
        const doc = c.request(op.id)?.schema;
        if (!op.requestSchema || !doc) continue;
        compared.push(op.id);
        const exempt = SERVED_ELSEWHERE[op.id] ?? [];
        for (const p of stricterThanDocument(schemaById(op.requestSchema) as Schema, doc as Schema))
          if (!exempt.some((at) => p.startsWith(`${at}:`))) stricter.push(`${op.id} ${p}`);
      }
      expect(compared.length, `request schemas compared: ${compared.join(', ')}`).toBeGreaterThanOrEqual(9);
      expect(stricter, `where the mock would refuse what the ${form} form allows`).toEqual([]);
    });
  }
});
