/**
 * The documentation's relative links resolve: `npm run check` runs remark-validate-links (offline: every linked file
 * and heading must exist) over README.md, BENCHMARKS.md and docs/. These tests run that very step of package.json on
 * the pages in doc-links/, so a check that lets a dead link through, or that stopped covering a page, fails here.
 */
import { test, expect } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PAGES = 'tests/layout/doc-links';
const REMARK = join(ROOT, 'node_modules/remark-cli/cli.js');

/** The link step of `npm run check`: its options and the files it covers. */
function linkStep(): { options: string[]; files: string[] } {
  const { scripts } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  const step = scripts.check?.split(' && ').find((s) => s.startsWith('remark '));
  if (!step) throw new Error('npm run check has no remark step: the documentation links are not checked');
  const words = step.split(/\s+/).slice(1);
  return { options: words.filter((w) => w.startsWith('--')), files: words.filter((w) => !w.startsWith('--')) };
}

/** Runs the link step on pages of doc-links/, from the repository's root (where its configuration is). */
function checkLinks(page: string): { status: number | null; output: string } {
  const run = spawnSync(process.execPath, [REMARK, ...linkStep().options, `${PAGES}/${page}`], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  return { status: run.status, output: stripVTControlCharacters(`${run.stderr}${run.stdout}`) };
}

test('should check the links of the README, the benchmarks and every docs page', () => {
  expect(linkStep().files).toEqual(['README.md', 'BENCHMARKS.md', 'docs']);
});

test('should pass links to pages, headings and folders that exist', () => {
  const run = checkLinks('live.md');
  expect(run.output).not.toContain('warning');
  expect(run.status).toBe(0);
});

test('should fail a link to a page that does not exist', () => {
  const run = checkLinks('dead-file.md');
  expect(run.output).toContain('Cannot find file `moved-away.md`');
  expect(run.status).not.toBe(0);
});

test('should fail a link to a heading that does not exist, in another page or its own', () => {
  const run = checkLinks('dead-anchor.md');
  expect(run.output).toContain('Cannot find heading for `#a-heading-that-was-renamed` in `target.md`');
  expect(run.output).toContain('Cannot find heading for `#a-section-that-moved`');
  expect(run.status).not.toBe(0);
});
