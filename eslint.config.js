// Lint rules, including the layering of the harness: data flows one way from the catalogue,
// and nothing imports the mock, the contract suite or the load scripts.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const layer = (message) => ({
  patterns: [
    { group: ['**/mock', '**/mock/*'], message },
    { group: ['**/contracts', '**/contracts/*'], message },
    { group: ['**/load', '**/load/*'], message },
  ],
});

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', 'reports/**', 'contracts/openapi.json'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
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
  {
    files: ['fixtures/**/*.ts', 'clients/**/*.ts', 'reporting/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', layer('catalogue, fixtures, clients and reporting must not import mock/, contracts/ or load/.')],
    },
  },
);
