/**
 * A finding a policy can turn into a failure reads the same on the same target: ten certifications of one unchanged
 * mock as a URL target (a live clock, no control API; its data grows by the run's own creates) record each finding
 * with one value, wherever the run's writes and token renewals fall. A finding not judged on a run (two pages a
 * write of the run came between) is no reading.
 */
import { test, expect } from '@playwright/test';
import { startMock } from '../../mock';
import { NOT_JUDGED } from '../../contracts/outcomes/finding-not-judged';
import { MOCK_APPS_ENV, certify } from './support/run-certify';

/** Certifications compared. */
const RUNS = 10;

test(`should record every finding with one value in ${RUNS} certifications of the unchanged mock as a URL target`, async () => {
  test.setTimeout(RUNS * 90_000);
  // Windows short enough that one run's calls do not spend the next run's buckets.
  const mock = await startMock({ windowMs: 5_000 });
  try {
    const readings = new Map<string, Set<string>>();
    for (let i = 0; i < RUNS; i++) {
      const r = await certify({ ...MOCK_APPS_ENV, TARGET: mock.url, REQUEST_BUDGET: '100000' });
      expect(r.status, r.stdout.slice(-3000)).toBe(0);
      for (const f of r.findings()) {
        if (f.observed === NOT_JUDGED) continue;
        const key = `${f.id}${f.operationId ? ` (${f.operationId})` : ''}`;
        readings.set(key, (readings.get(key) ?? new Set()).add(f.observed));
      }
    }
    const flipped = [...readings].filter(([, values]) => values.size > 1).map(([key, values]) => `${key}: ${[...values].join(' / ')}`);
    expect(flipped, 'findings that read differently on the same target').toEqual([]);
    expect(readings.size, 'findings recorded').toBeGreaterThan(10);
  } finally {
    await mock.close();
  }
});
