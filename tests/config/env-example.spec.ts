/**
 * `.env.example` lists every variable the harness reads, and nothing else: the list is compared with
 * the variables read in the code (process.env.X, env.X / env['X'] of an injected environment, the
 * config helpers' `(env, 'X')`, k6's __ENV.X).
 */
import { test, expect } from '@playwright/test';
import { readdirSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';

/** Read by the code but not for users to set, with the reason. */
const NOT_FOR_USERS: Record<string, string> = {
  PLAN: 'the load plan, passed by scripts/load.ts to the k6 scripts',
  OPERATION: "a capacity scenario's operation, set per scenario by load/scripts/capacity.ts",
  PATH: 'the system search path (k6 is looked up on it)',
  TEST_WORKER_INDEX: "set by Playwright in its worker processes (the harness tests' config tells runner from worker)",
};

const SKIP_DIRS = new Set(['node_modules', 'dist', 'reports', '.git']);
/** This file: its examples are not reads. */
const SELF = join('tests', 'config', 'env-example.spec.ts');
const READS = [
  /\bprocess\.env\.([A-Z][A-Z0-9_]*)/g,
  /\bprocess\.env\[['"`]([A-Z][A-Z0-9_]*)['"`]\]/g,
  /(?<![.\w])env\.([A-Z][A-Z0-9_]*)/g,
  /(?<![.\w])env\[['"`]([A-Z][A-Z0-9_]*)['"`]\]/g,
  /\(\s*env\s*,\s*['"`]([A-Z][A-Z0-9_]*)['"`]/g,
];
/** k6's __ENV in the harness's k6 scripts (the tests' own small scripts for the k6 double are not the harness). */
const K6_READS = [/(?<![.\w])__ENV\.([A-Z][A-Z0-9_]*)/g, /(?<![.\w])__ENV\[['"`]([A-Z][A-Z0-9_]*)['"`]\]/g];
const readsOf = (file: string) => (file.startsWith(`tests${sep}`) ? READS : [...READS, ...K6_READS]);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (SKIP_DIRS.has(e.name)) return [];
    const p = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return /\.(ts|mjs|js)$/.test(e.name) ? [p] : [];
  });
}

function sources(): { file: string; text: string }[] {
  return sourceFiles('.')
    .filter((f) => f !== SELF)
    .map((file) => ({ file, text: readFileSync(file, 'utf8') }));
}

function variablesRead(): Map<string, string> {
  const where = new Map<string, string>();
  for (const { file, text } of sources()) {
    for (const re of readsOf(file)) for (const m of text.matchAll(re)) if (!where.has(m[1] as string)) where.set(m[1] as string, file);
  }
  return where;
}

function variablesListed(): string[] {
  return readFileSync('.env.example', 'utf8')
    .split('\n')
    .map((l) => /^([A-Z][A-Z0-9_]*)=/.exec(l)?.[1])
    .filter((v): v is string => !!v);
}

test.describe('.env.example', () => {
  test('should list every variable the code reads, and only those', () => {
    const read = variablesRead();
    const listed = variablesListed();
    expect(read.size, 'the scan finds the configuration reads (config/read-config*.ts at least)').toBeGreaterThan(20);
    const missing = [...read.entries()]
      .filter(([v]) => !listed.includes(v) && !(v in NOT_FOR_USERS))
      .map(([v, file]) => `${v} (read in ${file})`);
    expect(missing, 'variables read by the code but missing from .env.example: add each with a comment').toEqual([]);
    // A variable read through a table (`env[name]` over named rows) is not a direct read: its name in the code is enough.
    const code = sources()
      .map((x) => x.text)
      .join('\n');
    const stale = listed.filter((v) => !read.has(v) && !new RegExp(`\\b${v}\\b`).test(code));
    expect(stale, 'variables in .env.example that no code mentions: remove them or read them').toEqual([]);
    const unused = Object.keys(NOT_FOR_USERS).filter((v) => !read.has(v));
    expect(unused, 'variables declared internal that no code reads any more').toEqual([]);
    expect(new Set(listed).size, 'each variable is listed once').toBe(listed.length);
  });

  test('should find a variable read in each of the forms the scan knows', () => {
    const text = [
      "const a = process.env.ONE; const b = process.env['TWO'];",
      "const c = env.THREE ?? env['FOUR']; const d = num(env, 'FIVE', 1); const e = __ENV.SIX;",
      "const f = { ...process.env, NOT_A_READ: '1' };",
    ].join('\n');
    const found = readsOf('load/scripts/x.ts').flatMap((re) => [...text.matchAll(re)].map((m) => m[1]));
    expect(found.sort()).toEqual(['FIVE', 'FOUR', 'ONE', 'SIX', 'THREE', 'TWO']);
  });
});
