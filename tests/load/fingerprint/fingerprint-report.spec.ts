/** The report's rate-limit section and the run diff of a changed algorithm. */
import { test, expect } from '@playwright/test';
import { allowedRefusedSeries, renderRateLimitSection, type FingerprintRow } from '../../../reporting/rate-limit-section';
import { diffRuns } from '../../../reporting/run-diff';
import type { LimitsManifestEntry } from '../../../reporting/report-shapes';
import { sampleSummary } from '../../reporting/sample';

const esc = (s: unknown) => String(s).replace(/</g, '&lt;');

const row = (over: Partial<FingerprintRow>): FingerprintRow => ({
  id: 'orders.create',
  environment: 'production',
  algorithm: 'token-bucket',
  burst: 20,
  sustainedPerSecond: 2,
  windowMs: null,
  refusedCallsCount: false,
  headers: ['x-ratelimit'],
  resetUnit: 'epoch',
  resetMoves: true,
  pacing: { schedule: 'burst 20 then 1 call every 527 ms' },
  verdict: null,
  evidence: ['exhaustion: 20 calls allowed, then 429'],
  requestsSpent: 90,
  durationMs: 12_000,
  ...over,
});

const entry = (id: string, algorithm: string | undefined): LimitsManifestEntry =>
  ({
    id,
    method: 'POST',
    path: '/resellers/v6/orders',
    environment: 'production',
    advertisedLimit: 20,
    observedLimit: 20,
    remainingStep: true,
    windowMs: null,
    resetUnit: 'epoch',
    resetErrorMs: null,
    requestsSpent: 22,
    ...(algorithm ? { algorithm } : {}),
  }) as LimitsManifestEntry;

test.describe('rate-limit report section', () => {
  test('should show each limiter, its pacing or verdict, and plot allowed and refused calls', () => {
    const s = renderRateLimitSection(
      [
        row({}),
        row({
          id: 'catalog.search',
          algorithm: 'unknown',
          pacing: null,
          verdict: 'did not reopen within 4 s; refused calls appear to count',
        }),
        row({
          id: 'invoices.details',
          algorithm: 'sliding-window',
          uncertain: ['window 55 ms is shorter than 3 poll gaps (120 ms)'],
          pacing: { schedule: '1 call every 2000 ms, no burst' },
        }),
      ],
      {
        operations: [
          {
            id: 'orders.create',
            environment: 'production',
            points: [
              { tMs: 0, allowed: true, phase: 'exhaustion' },
              { tMs: 5, allowed: true, phase: 'exhaustion' },
              { tMs: 9, allowed: false, phase: 'exhaustion' },
            ],
          },
        ],
      },
      esc,
    );
    expect(s.html).toContain('<b>token-bucket</b>');
    expect(s.html).toContain('burst 20 then 1 call every 527 ms');
    expect(s.html).toContain('no result: did not reopen within 4 s; refused calls appear to count');
    expect(s.html).toContain(
      '<span class="bad">uncertain: window 55 ms is shorter than 3 poll gaps (120 ms)</span><div>cautious pace: 1 call every 2000 ms, no burst</div>',
    );
    expect(s.html).toContain('id="limiter-0"');
    expect(s.html).not.toContain('id="limiter-1"');
    expect(s.script).toContain('new Chart(document.getElementById(p.canvas)');
    expect(renderRateLimitSection(undefined, undefined, esc).html).toContain('No limiter fingerprint found');
    expect(renderRateLimitSection([entry('x', undefined) as unknown as FingerprintRow], undefined, esc).script).toBe('');
  });

  test('should count allowed calls cumulatively and mark refusals at the count reached', () => {
    expect(
      allowedRefusedSeries([
        { tMs: 0.4, allowed: true },
        { tMs: 3, allowed: true },
        { tMs: 4, allowed: false },
        { tMs: 900, allowed: true },
      ]),
    ).toEqual({
      allowed: [
        { x: 0, y: 1 },
        { x: 3, y: 2 },
        { x: 900, y: 3 },
      ],
      refused: [{ x: 4, y: 2 }],
    });
  });

  test('should report a change of algorithm between two runs, and nothing when it is the same', () => {
    const before = [entry('orders.create', 'fixed-window'), entry('catalog.search', 'token-bucket'), entry('deals.details', undefined)];
    const after = [
      entry('orders.create', 'sliding-window'),
      entry('catalog.search', 'token-bucket'),
      entry('deals.details', 'fixed-window'),
    ];
    const d = diffRuns(sampleSummary(), sampleSummary(), { before, after });
    expect(d.algorithmsChanged).toEqual([
      { id: 'orders.create', environment: 'production', before: 'fixed-window', after: 'sliding-window' },
    ]);
    expect(d.changed).toBe(true);
    expect(diffRuns(sampleSummary(), sampleSummary(), { before, after: before }).changed).toBe(false);
  });
});
