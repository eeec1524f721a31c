import { test, expect } from '@playwright/test';
import { readFileSync, readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { parse } from 'acorn';
import { buildLoadScripts, LOAD_SCRIPTS } from '../../runner/bundles';
import { findK6 } from '../../runner/k6-process';

test.describe('load bundles', () => {
  test('should bundle every script into ES2017 modules that import only k6 modules', async () => {
    // Bundle time is a benchmark figure (npm run bench), not a test: here only what the bundles contain.
    const { files, ms } = await buildLoadScripts(test.info().outputPath('bundles'));
    expect(files.map((f) => f.replace(/^.*\//, '').replace(/\.js$/, '')).sort()).toEqual([...LOAD_SCRIPTS].sort());
    test.info().annotations.push({ type: 'bundle-time', description: `${ms.toFixed(0)} ms` });
    for (const f of files) {
      const code = readFileSync(f, 'utf8');
      // Throws on ?., ??, object spread and any other syntax newer than ES2017.
      const ast = parse(code, { ecmaVersion: 2017, sourceType: 'module' });
      const imports = ast.body
        .filter((n) => n.type === 'ImportDeclaration')
        .map((n) => String((n as unknown as { source: { value: string } }).source.value));
      expect(imports.length, f).toBeGreaterThan(0);
      for (const i of imports) expect(i, `${f} imports ${i}`).toMatch(/^k6(\/[a-z-]+)?$/);
    }
  });

  test('should hold only the entry points k6 runs in load/scripts/: the modules they share live beside it', () => {
    const files = readdirSync(new URL('../../load/scripts/', import.meta.url)).map((f) => f.replace(/\.ts$/, ''));
    expect(files.sort(), 'a module no bundle starts from belongs in load/plan/, load/shared/ or load/lib/').toEqual(
      [...LOAD_SCRIPTS].sort(),
    );
  });

  test('should say how to get k6 and exit non-zero when it is missing', async () => {
    expect(findK6({ PATH: '/nonexistent' })).toBeUndefined();
    expect(findK6({ K6_BIN: '/nonexistent/k6' })).toBeUndefined();
    const r = spawnSync(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'scripts/load.ts', 'smoke'], {
      env: { ...process.env, PATH: '/usr/bin:/bin', K6_BIN: '' },
      encoding: 'utf8',
    });
    expect(r.status).toBe(3);
    expect(r.stderr).toMatch(/k6 was not found: set K6_BIN/);
    expect(r.stderr).toMatch(/grafana\/k6/);
    expect(r.stderr).toMatch(/setup-k6/);
  });
});
