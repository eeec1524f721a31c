/**
 * The command lines the harness tests start are bundled once per run (cli-bundles.ts). A bundle must load
 * no more at its start than its source does through tsx: a module the source imports on demand stays a
 * chunk loaded on demand, and a command line that only starts the mock in another process does not load
 * the mock's server.
 */
import { test, expect } from '@playwright/test';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** The packages an ES module imports statically (esbuild writes one `import ... from "x";` per line). */
function staticImports(file: string): string[] {
  return [...readFileSync(file, 'utf8').matchAll(/^import\s[^;]*?from\s*"([^"]+)";$/gm)].map((m) => m[1] as string);
}

test.describe('command-line bundles', () => {
  const bin = process.env.HARNESS_BIN;

  test('should keep the OpenAPI parser out of the mock start and the mock server out of npm run load', () => {
    expect(bin, 'HARNESS_BIN is set by the global setup of the harness tests').toBeTruthy();
    const mock = staticImports(join(bin as string, 'mock.mjs'));
    expect(mock, 'the mock starts its server').toContain('fastify');
    expect(mock, 'the OpenAPI parser loads only with --openapi').not.toContain('@apidevtools/swagger-parser');
    const chunks = readdirSync(join(bin as string, 'mock-chunks')).map((f) => join(bin as string, 'mock-chunks', f));
    expect(
      chunks.some((c) => staticImports(c).includes('@apidevtools/swagger-parser')),
      'a chunk of the mock, loaded on demand, imports the OpenAPI parser',
    ).toBe(true);
    expect(staticImports(join(bin as string, 'load.mjs')), 'npm run load starts the mock in its own process').not.toContain('fastify');
  });
});
