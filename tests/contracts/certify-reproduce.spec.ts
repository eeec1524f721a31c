/**
 * Each failed check's reproduction, pasted in a shell: against a mock that drifts (a search ignores the page size
 * asked; the token endpoint accepts a JSON body), every curl the summary prints for a failure, run by bash with
 * ACCESS_TOKEN set by the printed token command and the client secret in its variable, gets the status and body
 * the run recorded in exchanges.har. On GitHub Actions the run writes them, with the verdict, to the step summary and
 * annotates each failed check.
 */
import { test, expect } from '@playwright/test';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DriftLayer, startMock } from '../../mock';
import type { HarLog } from '../../contracts/reporter/exchanges-har';
import type { HarEntry } from '../../contracts/record/har-entry';
import { reproductionText } from '../../contracts/reporter/reproduction';
import { MOCK_APPS_ENV, ONE_WORKER, certify } from './support/run-certify';
import { pagingOf } from './support/greps';

/** An answer as `curl -i` prints it: the status of its status line, the body after the headers. */
function answerOf(output: string): { status: number; body: string } {
  const cut = output.indexOf('\r\n\r\n');
  return { status: Number(/^HTTP\/[\d.]+ (\d{3})/.exec(output)?.[1]), body: cut < 0 ? '' : output.slice(cut + 4) };
}

/** A body with its issued token masked, as exchanges.har holds it. */
const masked = (body: string): string => body.replace(/("access_token"\s*:\s*")[^"]*"/g, '$1[REDACTED]"');

test('should print for each failed check the curl commands that get the same status and body from the target', async () => {
  test.setTimeout(240_000);
  const mock = await startMock({
    windowMs: 60_000,
    layer: new DriftLayer(['paging.page-size-ignored', 'token.json-body-accepted'], false),
  });
  const stepSummary = test.info().outputPath('step-summary.md');
  const env = {
    ...MOCK_APPS_ENV,
    TARGET: mock.url,
    FAMILIES: 'reseller',
    ENVIRONMENTS: 'production',
    GITHUB_ACTIONS: 'true',
    GITHUB_STEP_SUMMARY: stepSummary,
  };
  try {
    const r = await certify(env, [...ONE_WORKER, '-g', ['@tokens', pagingOf(['catalog.search'])].join('|')]);
    expect(r.status, r.stdout.slice(-3000)).toBe(1);
    const failed = r.summary().tests.filter((t) => t.status === 'failed');
    expect(readFileSync(stepSummary, 'utf8')).toMatch(/^## Certification of .*: ❌ FAILED$/m);
    expect(r.stdout.match(/^::error /gm)?.length, 'one annotation per failed check').toBe(failed.length);
    expect(failed.map((t) => t.title).join('\n')).toMatch(
      /JSON body instead of a form[\s\S]*page catalog\.search|page catalog\.search[\s\S]*JSON body/,
    );
    const har = JSON.parse(readFileSync(join(r.out, 'exchanges.har'), 'utf8')) as HarLog;
    const byId = new Map<string, HarEntry>(har.log.entries.map((e) => [e._correlationId, e]));
    for (const t of failed) {
      const rep = t.reproduction;
      expect(rep, `${t.title} has a reproduction`).toBeDefined();
      if (!rep) continue;
      expect(rep.notReproduced, t.title).toEqual([]);
      expect(r.stdout, 'the terminal prints it').toContain(rep.curls[0]);
      expect(readFileSync(join(r.out, 'junit.xml'), 'utf8')).toContain('Send it again:');
      for (const curl of rep.curls) {
        const sent = byId.get(/IM-CorrelationID: ([0-9a-f]+)/.exec(curl)?.[1] ?? '');
        expect(sent, `the exchange of ${curl}`).toBeDefined();
        const script = [...(rep.token ? [rep.token] : []), curl].join('\n');
        // Asynchronous: the mock answering the commands runs in this process.
        const run = await promisify(execFile)('bash', ['-c', script], {
          env: { PATH: process.env.PATH, RESELLER_CLIENT_SECRET: MOCK_APPS_ENV.RESELLER_CLIENT_SECRET },
          encoding: 'utf8',
          timeout: 30_000,
        });
        const again = answerOf(run.stdout);
        expect(again.status, `${t.title}: ${curl}`).toBe(sent?.response.status);
        expect(masked(again.body), `${t.title}: ${curl}`).toBe(sent?.response.content.text);
      }
      // On GitHub Actions: the step summary names the check and holds its commands; an annotation at its test's line.
      const markdown = readFileSync(stepSummary, 'utf8');
      expect(markdown).toContain(`### ❌ ${t.title}`);
      for (const curl of rep.curls) expect(markdown).toContain(curl);
      expect(r.stdout).toMatch(new RegExp(`^::error file=contracts/${t.file.replace('.', '\\.')},line=\\d+,title=`, 'm'));
      // Nothing secret in what is printed.
      expect(reproductionText(rep).join('\n')).not.toContain(MOCK_APPS_ENV.RESELLER_CLIENT_SECRET);
    }
  } finally {
    await mock.close();
  }
});
