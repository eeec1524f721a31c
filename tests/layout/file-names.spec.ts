/**
 * Files say what they hold: no two product files share a base name, so a name in a stack trace, an import or a
 * review points at one file. The exception, with its reason: a folder's entry (`index.ts`).
 */
import { test, expect } from '@playwright/test';
import { readdirSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PRODUCT_FOLDERS } from '../../eslint.config.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SHARED_NAMES = new Set(['index.ts']);

function productFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return productFiles(path);
    return /\.(ts|mts|mjs)$/.test(e.name) && !e.name.endsWith('.d.ts') ? [path] : [];
  });
}

test('should give no two product files the same base name', () => {
  const byName = new Map<string, string[]>();
  for (const file of PRODUCT_FOLDERS.flatMap(productFiles)) {
    const name = basename(file);
    if (SHARED_NAMES.has(name)) continue;
    byName.set(name, [...(byName.get(name) ?? []), relative(ROOT, join(ROOT, file))]);
  }
  const shared = [...byName].filter(([, files]) => files.length > 1).map(([name, files]) => `${name}: ${files.join(', ')}`);
  expect(shared, 'rename one of each pair by what it holds').toEqual([]);
});
