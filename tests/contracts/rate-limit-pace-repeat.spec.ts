/**
 * Certifications of the mock at a 2 s window behind a forwarding proxy, two at once, every family and environment:
 * on two busy cores a check may be blocked with its arithmetic, never failed. One round in the long suite;
 * CERTIFY_REPEAT=<rounds> repeats it (a measurement: each round is two certifications of 13-21 s).
 */
import { test, expect } from '@playwright/test';
import { certifyBehind } from './support/certify-behind';

const EVERY_FAMILY_AND_ENVIRONMENT = { FAMILIES: 'reseller,vendor', ENVIRONMENTS: 'production,sandbox' };

/** Rounds of the repeated certification (CERTIFY_REPEAT): each runs two certifications at once. */
const ROUNDS = Number(process.env.CERTIFY_REPEAT ?? 1);

test('should pass every certification of the mock at a 2 s window behind a forwarding proxy, two at once', async () => {
  expect(
    Number.isInteger(ROUNDS) && ROUNDS > 0,
    `CERTIFY_REPEAT: a positive number of rounds, received ${process.env.CERTIFY_REPEAT}`,
  ).toBe(true);
  test.setTimeout(ROUNDS * 300_000);
  const verdicts: string[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const runs = await Promise.all(
      [0, 1].map(() =>
        certifyBehind('pass-through', 2_000, ['--workers', '1'], {}, EVERY_FAMILY_AND_ENVIRONMENT).then((r) => ({ r, s: r.summary() })),
      ),
    );
    for (const { r, s } of runs) {
      const failed = s.tests.filter((t) => t.status === 'failed');
      verdicts.push(
        `${s.verdict}, exit ${r.status} (${s.totals.passed} passed, ${s.totals.blocked} blocked, ${failed.length} failed, ${r.seconds.toFixed(1)} s)` +
          (s.leftOut ?? [])
            .filter((l) => l.kind === 'blocked' || l.kind === 'not-run')
            .map((l) => `\n  ${l.kind}: ${l.reason}`)
            .join(''),
      );
      // Nothing failed: exit 0, or 99 when a check was blocked with its arithmetic (not judged).
      expect(r.status, r.stdout.slice(-2000)).toBe(s.totals.blocked + s.totals.skipped > 0 ? 99 : 0);
      expect(
        failed.map((t) => `${t.title}\n${t.error ?? ''}`),
        r.stdout.slice(-2000),
      ).toEqual([]);
    }
  }
  test.info().annotations.push({ type: 'certifications', description: verdicts.join('\n') });
});
