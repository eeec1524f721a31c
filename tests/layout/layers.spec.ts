/**
 * Arrows run one way inside a folder of stages: each subfolder of mock/, contracts/ and load/ imports only the
 * subfolders listed below it (LAYERS), never one beside it or above it. An import is any arrow the compiler
 * sees: `import`, `import type`, `export … from` and `import()`. Run alone:
 * `npx playwright test -c tests/playwright.config.ts tests/layout/layers.spec.ts`.
 */
import { test, expect } from '@playwright/test';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Each folder's subfolders, top first: a row may import the rows below it. `.` stands for the files of the
 * folder itself (mock/index.ts, the contract specs).
 */
const LAYERS: Record<string, string[][]> = {
  mock: [['.'], ['app'], ['routes', 'drift'], ['context'], ['checks', 'limits', 'api', 'latency'], ['ground']],
  contracts: [['.'], ['exchanges', 'reporter'], ['session'], ['judge'], ['outcomes'], ['plan'], ['record']],
  // The entry points k6 runs, what they share inside k6, the run plan, the pure probe logic.
  load: [['scripts'], ['shared'], ['plan'], ['lib']],
};

interface Arrow {
  from: string;
  to: string;
}

/** The relative imports of a TypeScript source, in every form the compiler reads (dynamic imports too). */
function importsOf(source: string): string[] {
  return ts
    .preProcessFile(source, true, true)
    .importedFiles.map((f) => f.fileName)
    .filter((f) => f.startsWith('.'));
}

/** The file an import names, as the bundler resolves it (extension or folder index left out). */
function resolveImport(fromFile: string, spec: string): string | undefined {
  const base = normalize(join(dirname(fromFile), spec));
  return [base, `${base}.ts`, `${base}.mjs`, join(base, 'index.ts')].find((c) => existsSync(c) && statSync(c).isFile());
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    return /\.(ts|mjs)$/.test(e.name) && !e.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The arrows between files of `folder` (paths relative to it). */
function arrowsIn(folder: string): Arrow[] {
  const dir = join(ROOT, folder);
  return sources(dir).flatMap((file) =>
    importsOf(readFileSync(file, 'utf8')).flatMap((spec) => {
      const target = resolveImport(file, spec);
      if (!target || relative(dir, target).startsWith('..')) return [];
      return [{ from: relative(dir, file), to: relative(dir, target) }];
    }),
  );
}

/** The subfolder a file of the folder lies in: `.` for the folder's own files. */
const stageOf = (path: string): string => (path.includes('/') ? (path.split('/')[0] as string) : '.');

/**
 * The arrows that do not run down: to a stage in the same row or above. A stage missing from the rows is
 * named too: a new folder needs its place.
 */
function arrowsUp(arrows: Arrow[], rows: string[][]): string[] {
  const rank = new Map(rows.flatMap((row, i) => row.map((stage) => [stage, i] as const)));
  const unplaced = new Set(arrows.flatMap((a) => [stageOf(a.from), stageOf(a.to)]).filter((s) => !rank.has(s)));
  const up = arrows.filter((a) => {
    const from = stageOf(a.from);
    const to = stageOf(a.to);
    return from !== to && rank.has(from) && rank.has(to) && (rank.get(to) as number) <= (rank.get(from) as number);
  });
  return [
    ...[...unplaced].map((s) => `${s}/ has no row in LAYERS: place it among the others`),
    ...up.map((a) => `${a.from} → ${a.to}: ${stageOf(a.to)}/ is not below ${stageOf(a.from)}/`),
  ];
}

test.describe('layers inside a folder', () => {
  for (const [folder, rows] of Object.entries(LAYERS)) {
    test(`should run every arrow between the folders of ${folder}/ down the layers`, () => {
      const arrows = arrowsIn(folder);
      const between = arrows.filter((a) => stageOf(a.from) !== stageOf(a.to));
      test.info().annotations.push({ type: 'arrows', description: `${between.length} arrows between the folders of ${folder}/` });
      expect(between.length, `${folder}/ has arrows between its folders to judge`).toBeGreaterThan(0);
      expect(arrowsUp(arrows, rows), `import only from the rows below (tests/layout/layers.spec.ts LAYERS)`).toEqual([]);
    });
  }

  test('should name an arrow that runs up, one beside its source, and a folder without a row', () => {
    const rows = [['top'], ['middle', 'side'], ['ground']];
    const arrows: Arrow[] = [
      { from: 'top/a.ts', to: 'middle/b.ts' },
      { from: 'middle/b.ts', to: 'ground/c.ts' },
      { from: 'middle/b.ts', to: 'middle/d.ts' },
      { from: 'ground/c.ts', to: 'top/a.ts' },
      { from: 'middle/b.ts', to: 'side/e.ts' },
      { from: 'new/f.ts', to: 'ground/c.ts' },
    ];
    expect(arrowsUp(arrows, rows)).toEqual([
      'new/ has no row in LAYERS: place it among the others',
      'ground/c.ts → top/a.ts: top/ is not below ground/',
      'middle/b.ts → side/e.ts: side/ is not below middle/',
    ]);
  });

  test('should read static, type-only, re-exported and dynamic imports', () => {
    const source = [
      "import { a } from './a';",
      "import type { B } from '../b';",
      "export { c } from './c/index';",
      "const d = await import('./d');",
      "import { readFileSync } from 'node:fs';",
    ].join('\n');
    expect(importsOf(source)).toEqual(['./a', '../b', './c/index', './d']);
  });
});
