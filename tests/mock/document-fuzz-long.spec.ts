/**
 * The document fuzz (document-fuzz.ts) over every constraint either published form gives, in both request modes,
 * and over every path either form gives (methods, `Allow`, path parameters of drawn lengths).
 * The fast suite runs a seeded slice (document-fuzz.spec.ts).
 */
import { test, expect } from '@playwright/test';
import { loadOpenApi } from '../../openapi/import';
import { readOpenApiDocument } from '../../openapi/read-document';
import { fuzzSummary, pathFuzzSummary, runDocumentFuzz, runPathFuzz, type DocumentPaths } from './document-fuzz';

const FILES = [process.env.VENDOR_OPENAPI, process.env.VENDOR_OPENAPI_JSON];
/** The fuzz's seed: the same values each run. */
const SEED = 47;

test.describe('the mock against every constraint of the published documents', () => {
  for (const mode of ['strict', 'warn'] as const) {
    test(`should refuse with 400 naming the location (warn: serve and note) each value both forms refuse, and serve each a form allows (${mode})`, async () => {
      test.skip(!FILES.every(Boolean), 'VENDOR_OPENAPI and VENDOR_OPENAPI_JSON name the two published forms (`.ci/run` sets them)');
      test.setTimeout(300_000);
      const forms = await Promise.all(FILES.map((f) => loadOpenApi(f as string)));
      const counts = await runDocumentFuzz(forms, { seed: SEED, mode, rounds: 2 });
      const summary = fuzzSummary(mode, counts);
      console.log(summary);
      test.info().annotations.push({ type: 'document-fuzz', description: summary });
      expect(counts.operations).toBeGreaterThanOrEqual(26);
      expect(counts.refused).toBeGreaterThan(0);
      expect(counts.served).toBeGreaterThan(0);
      expect(counts.mismatches, summary).toEqual([]);
    });
  }

  test("should serve every method either form gives a path, name in Allow what a path serves, and answer path parameters of drawn lengths as the router's limit and the forms' maxLength say", async () => {
    test.skip(!FILES.every(Boolean), 'VENDOR_OPENAPI and VENDOR_OPENAPI_JSON name the two published forms (`.ci/run` sets them)');
    const documents = await Promise.all(
      FILES.map(async (f) => (await readOpenApiDocument<{ openapi?: string; paths?: DocumentPaths }>(f as string)).paths ?? {}),
    );
    const counts = await runPathFuzz(documents, { seed: SEED, rounds: 20 });
    const summary = pathFuzzSummary(counts);
    console.log(summary);
    test.info().annotations.push({ type: 'path-fuzz', description: summary });
    expect(counts.longParametersTried).toBeGreaterThan(100);
    expect(counts.mismatches, summary).toEqual([]);
  });
});
