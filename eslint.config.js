// Lint rules, including the layering of the harness: data flows one way from the catalogue, and each
// folder says what it must not import, with its own message. TypeScript is linted with type
// information (no-floating-promises: a promise nobody awaits hides its failure).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/**
 * A folder as a regular expression over an import's path, for import() (a selector's regular expression cannot hold
 * a "/": `\x2F` stands for it). scripts/ is the top-level command folder only, not load/scripts/ (the k6 entry points).
 */
const pathRegex = (f) => (f === 'scripts' ? '^(\\.\\.\\x2F)+scripts(\\x2F|$)' : `(^|\\x2F)${f.replaceAll('/', '\\x2F')}(\\x2F|$)`);

/** A forbidden folder, for both forms of import: its static pattern and its import() path. */
const folderBan = (f, message) => ({
  pattern: f === 'scripts' ? { regex: '^(\\.\\./)+scripts(/|$)', message } : { group: [`**/${f}`, `**/${f}/**`], message },
  selectors: [`ImportExpression[source.value=/${pathRegex(f)}/]`],
  message,
});

/**
 * The rules of what a folder must not import: `import ... from` (no-restricted-imports) and `import()`
 * (no-restricted-syntax: no-restricted-imports does not see dynamic imports), one message per ban.
 */
const importRules = (bans) => ({
  'no-restricted-imports': ['error', { patterns: bans.map((b) => b.pattern) }],
  'no-restricted-syntax': ['error', ...bans.flatMap((b) => b.selectors.map((selector) => ({ selector, message: b.message })))],
});

/** What `folder` must not import: one ban per forbidden folder, each with its reason. */
const mustNotImport = (folder, forbidden, why) => forbidden.map((f) => folderBan(f, `${folder}/ must not import from ${f}/: ${why}`));

const DATA_FLOWS = 'data flows one way from the catalogue, and nothing imports the mock, the contract suite or the load scripts.';

const MOCK_FORBIDDEN = ['contracts', 'load', 'runner', 'scripts'];
const MOCK_CORE_WHY =
  "the mock's core must not import mock/drift/: the drift layer is handed to the app as an option (MockOptions.layer), built by the entry points that assemble it (mock/index.ts exports DriftLayer).";
const MOCK_WHY = 'the mock serves the catalogue; the suite and the probes test it, never the other way round.';

const CONTRACTS_WHY =
  'the certification suite runs the same on any target: drift modes and the detection matrix belong to the harness tests (tests/contracts/).';
/** What the mock's entry exports for the detection matrix and the mock's tests: switchable drift, the list of modes. */
const MATRIX_MACHINERY = ['DriftLayer', 'DRIFT_MODES'];
const MACHINERY_NAMES = `^(${MATRIX_MACHINERY.join('|')})$`;
/** The mock's entry as an import path: `../../mock`, `../../mock/index`. */
const MOCK_ENTRY = '(^|\\x2F)mock(\\x2Findex)?$';
const CONTRACTS_THROUGH_INDEX = `contracts/ must not take ${MATRIX_MACHINERY.join(' or ')} from the mock's entry: certify's embedded mock serves the drift modes MOCK_DRIFT names, fixed (fixedDrift); switching them is the detection matrix's (tests/contracts/matrix/).`;

/**
 * What each product folder must not import (tests/ for every one: the harness tests build on the product,
 * never the other way round). catalogue/ and common/ have their own, stricter rule below.
 */
const LAYERS = [
  ['fixtures', ['mock', 'contracts', 'load', 'runner', 'scripts'], DATA_FLOWS],
  ['clients', ['config', 'mock', 'contracts', 'load', 'runner', 'scripts'], DATA_FLOWS],
  ['config', ['mock', 'contracts', 'load', 'runner', 'scripts'], DATA_FLOWS],
  [
    'openapi',
    ['mock', 'contracts', 'load', 'runner', 'scripts'],
    'the document reader serves the mock, the suite and the CLI, and knows none of them.',
  ],
  ['reporting', ['mock', 'contracts', 'load', 'runner', 'scripts'], 'the report reads run results, never the code that produced them.'],
  ['mock', MOCK_FORBIDDEN, MOCK_WHY],
  [
    'load',
    ['mock', 'contracts', 'runner', 'scripts', 'bench'],
    'the k6 scripts run inside k6 against any target: they know nothing of the mock, the suite or the CLI.',
  ],
  [
    'runner',
    ['contracts', 'scripts', 'bench'],
    'the load runner plans a run and starts the mock and k6; the commands and the benchmark drive it, never the other way round.',
  ],
  [
    'bench',
    ['contracts', 'load', 'scripts'],
    'the benchmark measures the mock and its ceilings; the CLI drives it, never the other way round.',
  ],
  ['scripts', [], 'the command-line entry points wire the product together.'],
];

/** The product's folders: held to the function limits below. */
export const PRODUCT_FOLDERS = [
  'catalogue',
  'common',
  'fixtures',
  'clients',
  'config',
  'openapi',
  'reporting',
  'mock',
  'contracts',
  'load',
  'runner',
  'bench',
  'scripts',
];
/**
 * The k6 test double: the harness tests' tool, held to the product's limits (it stands for k6 in every load
 * test, so a newcomer reads it as often as the product).
 */
const K6_DOUBLE = 'tests/tools/k6-node';
/** Folders held to the function and file limits below. */
const LIMITED_FOLDERS = [...PRODUCT_FOLDERS, K6_DOUBLE];
/** Lines of one function (blank lines and comments aside): a function longer than a screen is read in pieces. */
const MAX_FUNCTION_LINES = 80;
/** Cyclomatic complexity of one function: past 20 paths, no reader holds them all. */
const MAX_COMPLEXITY = 20;
/** Lines of one product file: past 300, a file holds more than one thing; split it by what each part holds. */
const MAX_FILE_LINES = 300;
/** Files exempt from the file length, each as [file, reason]: data tables, read one row at a time. */
const FILE_LENGTH_EXCEPTIONS = [
  ['catalogue/operations.ts', 'the operations table: one row per operation of the spec and the published document'],
  ['catalogue/schemas.ts', "the JSON Schemas of the operations' bodies and answers: one entry per schema"],
];
/**
 * Files exempt from both limits, each as [file, reason]: a debt to pay down, not a precedent. Empty: every
 * product function is within the limits.
 */
const FUNCTION_LIMIT_EXCEPTIONS = [];

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
  // catalogue/ (the API's data) and common/ (order statistics, k6's duration syntax) are pure: both compile for
  // Node and for k6, read no environment and import nothing outside themselves.
  ...['catalogue', 'common'].map((folder) => ({
    files: [`${folder}/**/*.ts`],
    rules: {
      ...importRules([
        {
          pattern: { group: ['node:*', 'k6', 'k6/*'], message: `${folder}/ is pure: it must compile for Node AND for k6.` },
          selectors: ['ImportExpression[source.value=/^(node:|k6$|k6\\x2F)/]'],
          message: `${folder}/ is pure: it must compile for Node AND for k6.`,
        },
        {
          pattern: { group: ['../*'], message: `${folder}/ imports nothing outside itself.` },
          selectors: ['ImportExpression[source.value=/^\\.\\.\\x2F/]'],
          message: `${folder}/ imports nothing outside itself.`,
        },
      ]),
      'no-restricted-globals': ['error', { name: 'process', message: `${folder}/ must not read process.env.` }],
    },
  })),
  ...LAYERS.map(([folder, forbidden, why]) => ({
    files: [`${folder}/**/*.ts`, `${folder}/**/*.mjs`],
    rules: importRules(mustNotImport(folder, [...forbidden, 'tests'], why)),
  })),
  {
    // The mock's core knows the layer over it by its interface only (mock/ground/mock-layer.ts): the drift layer is handed
    // to the app from outside (MockOptions.layer), by the entry points that assemble it: the public entry
    // (mock/index.ts) and the mock's command line (mock/app/command.ts, which `npm run mock` and the mock's own
    // process run).
    files: ['mock/**/*.ts'],
    ignores: ['mock/drift/**', 'mock/index.ts', 'mock/app/command.ts'],
    rules: importRules([
      ...mustNotImport('mock', [...MOCK_FORBIDDEN, 'tests'], MOCK_WHY),
      {
        pattern: {
          group: ['./drift', './drift/**', '../drift', '../drift/**', '**/mock/drift', '**/mock/drift/**'],
          message: MOCK_CORE_WHY,
        },
        selectors: [`ImportExpression[source.value=/${pathRegex('drift')}/]`],
        message: MOCK_CORE_WHY,
      },
    ]),
  },
  {
    files: [`${K6_DOUBLE}/**/*.ts`, `${K6_DOUBLE}/**/*.mjs`],
    ignores: ['**/*.spec.ts'],
    rules: importRules(
      mustNotImport(
        K6_DOUBLE,
        ['load', 'contracts', 'runner', 'scripts', 'mock'],
        'the k6 test double implements k6, not the scripts it runs; share code through clients/ or catalogue/.',
      ),
    ),
  },
  {
    files: ['contracts/**/*.ts', 'playwright.config.ts'],
    rules: importRules([
      ...mustNotImport('contracts', ['load', 'scripts', 'tests', 'mock/drift'], CONTRACTS_WHY),
      // The same machinery through the mock's entry (mock/index.ts), imported or asked for with import().
      {
        pattern: { group: ['**/mock', '**/mock/index'], importNames: MATRIX_MACHINERY, message: CONTRACTS_THROUGH_INDEX },
        selectors: [
          `VariableDeclarator[init.argument.source.value=/${MOCK_ENTRY}/] > ObjectPattern > Property[key.name=/${MACHINERY_NAMES}/]`,
          `MemberExpression[object.argument.source.value=/${MOCK_ENTRY}/][property.name=/${MACHINERY_NAMES}/]`,
        ],
        message: CONTRACTS_THROUGH_INDEX,
      },
    ]),
  },
  {
    // Specs aside: a describe block is a list of tests, read one test at a time.
    files: LIMITED_FOLDERS.flatMap((f) => [`${f}/**/*.ts`, `${f}/**/*.mjs`]),
    ignores: ['**/*.spec.ts'],
    rules: {
      'max-lines-per-function': ['error', { max: MAX_FUNCTION_LINES, skipBlankLines: true, skipComments: true }],
      complexity: ['error', MAX_COMPLEXITY],
    },
  },
  ...FUNCTION_LIMIT_EXCEPTIONS.map(([file]) => ({ files: [file], rules: { 'max-lines-per-function': 'off', complexity: 'off' } })),
  {
    files: LIMITED_FOLDERS.flatMap((f) => [`${f}/**/*.ts`, `${f}/**/*.mjs`]),
    ignores: [...FILE_LENGTH_EXCEPTIONS.map(([file]) => file), `${K6_DOUBLE}/**/*.spec.ts`],
    rules: { 'max-lines': ['error', { max: MAX_FILE_LINES, skipBlankLines: false, skipComments: false }] },
  },
);
