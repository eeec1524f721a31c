// Lint rules, including the layering of the harness: data flows one way from the catalogue, and each
// folder says what it must not import, with its own message. TypeScript is linted with type
// information (no-floating-promises: a promise nobody awaits hides its failure).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** A restricted-imports rule: one message per forbidden folder. */
const mustNotImport = (folder, forbidden, why) => [
  'error',
  {
    patterns: forbidden.map((f) => ({
      group: [`**/${f}`, `**/${f}/**`],
      message: `${folder}/ must not import from ${f}/: ${why}`,
    })),
  },
];

const DATA_FLOWS = 'data flows one way from the catalogue, and nothing imports the mock, the contract suite or the load scripts.';

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', 'reports/**', 'contracts/openapi.json'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
    },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Plain JavaScript that runs in Node (benchmark servers, the k6 double's worker).
    files: ['**/*.mjs'],
    languageOptions: {
      globals: Object.fromEntries(
        ['process', 'Buffer', 'console', 'fetch', 'performance', 'setTimeout', 'clearTimeout', 'AbortController', 'URL', 'Atomics'].map(
          (g) => [g, 'readonly'],
        ),
      ),
    },
  },
  {
    files: ['catalogue/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['node:*', 'k6', 'k6/*'], message: 'catalogue/ is pure data: it must compile for Node AND for k6.' },
            { group: ['../*'], message: 'catalogue/ imports nothing outside itself.' },
          ],
        },
      ],
      'no-restricted-globals': ['error', { name: 'process', message: 'catalogue/ must not read process.env.' }],
    },
  },
  { files: ['fixtures/**/*.ts'], rules: { 'no-restricted-imports': mustNotImport('fixtures', ['mock', 'contracts', 'load'], DATA_FLOWS) } },
  { files: ['clients/**/*.ts'], rules: { 'no-restricted-imports': mustNotImport('clients', ['mock', 'contracts', 'load'], DATA_FLOWS) } },
  {
    files: ['reporting/**/*.ts'],
    rules: {
      'no-restricted-imports': mustNotImport(
        'reporting',
        ['mock', 'contracts', 'load'],
        'the report reads run results, never the code that produced them.',
      ),
    },
  },
  {
    files: ['mock/**/*.ts'],
    rules: {
      'no-restricted-imports': mustNotImport(
        'mock',
        ['contracts', 'load'],
        'the mock serves the catalogue; the suite and the probes test it, never the other way round.',
      ),
    },
  },
  {
    files: ['contracts/**/*.ts', 'playwright.config.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/tests', '**/tests/**'],
              message:
                'the certification suite must not import the harness tests: the detection matrix builds on the suite, never the other way round.',
            },
            {
              group: ['**/mock/drift'],
              message: "the certification suite knows nothing of drift modes: they are the detection matrix's (tests/contracts/).",
            },
          ],
        },
      ],
    },
  },
  {
    files: ['tools/**/*.ts', 'tools/**/*.mjs'],
    rules: {
      'no-restricted-imports': mustNotImport(
        'tools',
        ['load'],
        'the k6 test double implements k6, not the scripts it runs; share code through clients/ or catalogue/.',
      ),
    },
  },
);
