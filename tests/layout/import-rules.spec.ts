/**
 * The layering rules (eslint.config.js) see every way a folder can reach another: `import … from`, `import()`,
 * and the detection matrix's drift machinery taken through the mock's entry (mock/index.ts). Each case is
 * linted as a file of the folder it names, with the project's configuration.
 */
import { test, expect } from '@playwright/test';
import { ESLint } from 'eslint';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The project's configuration, without type information (the sources linted here are not files of the project). */
const eslint = new ESLint({
  cwd: ROOT,
  overrideConfig: {
    languageOptions: { parserOptions: { projectService: false } },
    rules: { '@typescript-eslint/no-floating-promises': 'off' },
  },
});

/** The layering messages for `source` linted as the file `file`. */
async function layeringErrors(file: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath: join(ROOT, file) });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId === 'no-restricted-imports' || m.ruleId === 'no-restricted-syntax')
    .map((m) => m.message);
}

test.describe('layering rules', () => {
  const cases: [string, string, RegExp][] = [
    [
      'contracts/session/case.ts',
      "export const m = () => import('../../mock/drift/drift-layer');",
      /contracts\/ must not import from mock\/drift\//,
    ],
    [
      'contracts/session/case.ts',
      "import { DriftLayer } from '../../mock';\nexport { DriftLayer };",
      /must not take DriftLayer or DRIFT_MODES/,
    ],
    [
      'contracts/session/case.ts',
      "export async function m() {\n  const { DriftLayer } = await import('../../mock');\n  return DriftLayer;\n}",
      /must not take DriftLayer or DRIFT_MODES/,
    ],
    [
      'contracts/session/case.ts',
      "export const m = async () => (await import('../../mock')).DRIFT_MODES;",
      /must not take DriftLayer or DRIFT_MODES/,
    ],
    ['mock/routes/case.ts', "export const m = () => import('../drift/drift-layer');", /the mock's core must not import mock\/drift\//],
    ['mock/ground/case.ts', "export const m = () => import('../../runner/plan');", /mock\/ must not import from runner\//],
    ['catalogue/case.ts', "export const m = () => import('node:fs');", /catalogue\/ is pure/],
    ['clients/case.ts', "export const m = () => import('../scripts/certify');", /clients\/ must not import from scripts\//],
  ];
  for (const [file, source, message] of cases) {
    test(`should refuse in ${file}: ${source.split('\n').join(' ')}`, async () => {
      expect(await layeringErrors(file, source)).toEqual([expect.stringMatching(message)]);
    });
  }

  test("should let certify's target start the mock with the drift modes MOCK_DRIFT names, fixed", async () => {
    const source =
      "export async function m() {\n  const { startMock, fixedDrift } = await import('../../mock');\n  return [startMock, fixedDrift];\n}";
    expect(await layeringErrors('contracts/session/case.ts', source)).toEqual([]);
  });
});
