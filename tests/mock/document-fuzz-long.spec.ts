/**
 * The document fuzz (document-fuzz.ts) over every constraint either published form gives, in both request modes.
 * The fast suite runs a seeded slice (document-fuzz.spec.ts).
 */
import { test, expect } from '@playwright/test';
import { loadOpenApi } from '../../openapi/import';
import { fuzzSummary, runDocumentFuzz } from './document-fuzz';

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
});
