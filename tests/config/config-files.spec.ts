/**
 * The configuration files (POLICY, OPENAPI) are checked at start-up, before any request: a policy against
 * its JSON Schema (unknown finding ids, unknown keys, wrong value types, with the nearest valid name), and
 * both files for being readable and what their variable needs. certify and `npm run load` refuse a bad one
 * with exit 2 in a few seconds, with a message naming the variable, and no report of a run that did not happen.
 */
import { test, expect } from '@playwright/test';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../../config/read-config';
import { checkOpenApiFile, nearest, readPolicy } from '../../config/config-files';
import { cliArgs } from '../cli-bundles';
import { load, run } from '../load/run';

/** The documented ceiling of a refusal at start-up, node's start and the bundle's load included. */
const START_UP_REFUSAL_S = 3;
const OPENAPI_DOC = 'tests/openapi/fixtures/distributor-openapi-3.0.yaml';
const TYPO_POLICY = { findings: { 'ratelimit.reset-unit': { expectd: 'seconds' }, 'token.lifetme': { strict: true } } };

function file(name: string, content: unknown): string {
  const dir = test.info().outputPath();
  mkdirSync(dir, { recursive: true });
  const path = join(dir, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

const policyError = (content: unknown): string => {
  try {
    readPolicy(file('policy.json', content));
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as Error).message;
  }
  throw new Error('the policy was accepted');
};

const openApiError = async (path: string): Promise<string> => {
  const e = await checkOpenApiFile(path).then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e, `${path} must be refused`).toBeInstanceOf(ConfigError);
  return (e as Error).message;
};

test.describe('POLICY against its JSON Schema', () => {
  test('should refuse unknown finding ids and unknown keys with the nearest valid name', () => {
    const message = policyError(TYPO_POLICY);
    expect(message).toMatch(/^POLICY=\S+policy\.json is not a valid policy: /);
    expect(message).toContain('findings: unknown finding id "token.lifetme" (did you mean "token.lifetime"?)');
    expect(message).toContain('findings → ratelimit.reset-unit: unknown key "expectd" (did you mean "expected"?)');
    expect(message).toMatch(/fix the file or unset POLICY$/);
    expect(policyError({ finding: {} })).toContain('the top level: unknown key "finding" (did you mean "findings"?)');
  });

  test('should refuse wrong value types and answers a finding never records', () => {
    expect(policyError({ findings: { 'token.lifetime': { strict: 'yes' } } })).toContain(
      'findings → token.lifetime → strict: must be boolean, received "yes"',
    );
    expect(policyError({ findings: { 'ratelimit.reset-unit': { expected: 'secnds' } } })).toContain(
      '"secnds" is not an answer this finding records (did you mean "seconds"?)',
    );
    expect(policyError({ findings: [] })).toContain('findings: must be object, received []');
    // Far from every valid name: the valid names are listed instead of a guess.
    expect(policyError({ findings: { 'zzzzzzzzzz.qqq': {} } })).toMatch(/unknown finding id "zzzzzzzzzz\.qqq" \(valid: token\.method, /);
  });

  test('should refuse a policy file that is missing or not JSON, and read the example policy', () => {
    expect(() => readPolicy('/nonexistent.json')).toThrow(
      /^POLICY=\/nonexistent\.json cannot be read \(ENOENT\); expected a JSON policy file/,
    );
    expect(() => readPolicy(file('p.json', '{"findings": '))).toThrow(/^POLICY=\S+ is not JSON \(/);
    expect(readPolicy('policy/strict.example.json').findings?.['token.lifetime']).toEqual({ strict: true });
    expect(readPolicy(undefined)).toEqual({});
  });

  test('should suggest a name only when it is near', () => {
    expect(nearest('token.lifetme', ['token.lifetime', 'token.method'])).toBe('token.lifetime');
    expect(nearest('expectd', ['expected', 'strict'])).toBe('expected');
    expect(nearest('colour', ['expected', 'strict'])).toBeUndefined();
  });
});

test.describe('OPENAPI at start-up', () => {
  test('should refuse a document that is missing, unreadable, not JSON or YAML, or not OpenAPI 3', async () => {
    expect(await openApiError('/nonexistent.yaml')).toMatch(
      /^OPENAPI=\/nonexistent\.yaml cannot be read \(ENOENT\); expected an OpenAPI 3\.0 or 3\.1 document \(JSON or YAML\): fix the path or unset OPENAPI$/,
    );
    expect(await openApiError(mkdirSync(test.info().outputPath('folder'), { recursive: true }) as string)).toMatch(
      /cannot be read \(EISDIR\)/,
    );
    expect(await openApiError(file('bad.yaml', 'paths: [1\n'))).toMatch(/cannot be read as JSON or YAML/);
    expect(await openApiError(file('other.yaml', 'hello: world\n'))).toMatch(/is not an API document/);
    expect(await openApiError(file('swagger.json', { swagger: '2.0', info: { title: 't', version: '1' }, paths: {} }))).toMatch(
      /is OpenAPI "swagger 2\.0"; expected an OpenAPI 3\.0 or 3\.1 document .*convert a Swagger 2\.0 document/,
    );
    await checkOpenApiFile(OPENAPI_DOC);
  });
});

test.describe('certify and npm run load refuse bad configuration files at start-up', () => {
  const cases: [string, () => Record<string, string>, RegExp][] = [
    [
      'a policy with misspelt names',
      () => ({ POLICY: file('typo.json', TYPO_POLICY) }),
      /POLICY=\S+ is not a valid policy: .*did you mean "token\.lifetime"\?.*did you mean "expected"\?/,
    ],
    ['a missing policy file', () => ({ POLICY: '/nonexistent.json' }), /POLICY=\/nonexistent\.json cannot be read/],
    ['a missing OpenAPI document', () => ({ OPENAPI: '/nonexistent.yaml' }), /OPENAPI=\/nonexistent\.yaml cannot be read/],
  ];
  for (const [what, env, message] of cases) {
    test(`should refuse ${what} with exit 2 within ${START_UP_REFUSAL_S} s, before any run`, async () => {
      const out = test.info().outputPath('reports');
      // At normal priority (a certify run's own default): the ceiling is about the refusal, not the scheduler.
      const started = Date.now();
      const r = await run(process.execPath, cliArgs('certify'), { ...env(), REPORTS_DIR: out, CI: '' }, 30_000);
      const seconds = (Date.now() - started) / 1000;
      expect(r.code, r.stdout + r.stderr).toBe(2);
      expect(r.stderr).toMatch(new RegExp(`^certify: cannot start: ${message.source}`, 'm'));
      expect(seconds, 'refused at start-up').toBeLessThan(START_UP_REFUSAL_S);
      expect(existsSync(join(out, 'summary.json')), 'no report of a run that did not happen').toBe(false);
      expect(r.stdout).toContain('(no report: the run did not start)');
    });
  }

  test('should refuse a bad OPENAPI or --openapi document in npm run load before the mock or k6 starts', async () => {
    const dir = test.info().outputPath();
    const fromEnv = await load(dir, ['smoke'], { OPENAPI: '/nonexistent.yaml' });
    expect(fromEnv.code, fromEnv.stderr).toBe(2);
    expect(fromEnv.stderr).toMatch(/^load: OPENAPI=\/nonexistent\.yaml cannot be read \(ENOENT\)/m);
    const fromOption = await load(dir, ['smoke', '--openapi', file('swagger.json', { swagger: '2.0', paths: {} })], { OPENAPI: '' });
    expect(fromOption.code, fromOption.stderr).toBe(2);
    expect(fromOption.stderr).toMatch(/^load: --openapi=\S+swagger\.json is OpenAPI "swagger 2\.0"/m);
    expect(fromEnv.stdout + fromOption.stdout, 'nothing ran').not.toContain('embedded mock');
  });
});
