/** Realistic report inputs built from the catalogue: one row per operation and environment. */
import { allOperations } from '../../catalogue';
import type { RunSummary, Finding, LimitsManifestEntry, TestResult } from '../../reporting/report-shapes';
import type { HarEntry } from '../../reporting/har-shapes';

export function sampleSummary(over: Partial<RunSummary> = {}, secret = ''): RunSummary {
  const operations = allOperations().flatMap((o, i) =>
    (['production', 'sandbox'] as const).map((environment) => ({
      id: o.id,
      family: o.family,
      environment,
      method: o.method,
      path: o.path,
      status: 'passed' as const,
      checks: { 'valid-call': 'passed' as const, auth: 'passed' as const },
      advertisedLimit: o.method === 'GET' ? 60 : 150,
      latencyMs: [3 + (i % 7), 5 + (i % 5)],
      headers: ['content-type', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'],
      fields: ['items'],
      ...(secret ? { evidence: `GET /x Authorization: Bearer ${secret}` } : {}),
    })),
  );
  const findings: Finding[] = [
    {
      id: 'ratelimit.reset-unit@production',
      statement: 'Errors 2',
      observed: 'epoch',
      evidence: `X-RateLimit-Reset 1800000000${secret ? ` client_secret=${secret}` : ''}`,
    },
    { id: 'token.lifetime@reseller/production', statement: 'Authentication 5', observed: 'beyond-24h', evidence: 'expires_in=2592000' },
  ];
  return {
    harnessVersion: '0.1.0',
    target: 'embedded mock',
    environments: ['production', 'sandbox'],
    startedAt: '2026-11-22T10:00:00.000Z',
    durationMs: 8000,
    verdict: 'passed',
    totals: { passed: 170, failed: 0, blocked: 0, skipped: 5, findings: findings.length },
    operations,
    tests: operations.map((r) => ({
      title: `should answer a valid ${r.id} call (${r.environment})`,
      file: 'operations.spec.ts',
      status: 'passed' as const,
      durationMs: 5,
      tags: [],
    })),
    findings,
    ...over,
  };
}

export function sampleLimits(): { operations: LimitsManifestEntry[] } {
  return {
    operations: allOperations()
      .slice(0, 5)
      .map((o) => ({
        id: o.id,
        method: o.method,
        path: o.path,
        environment: 'production' as const,
        advertisedLimit: 5,
        observedLimit: 5,
        remainingStep: true,
        windowMs: 1500,
        resetUnit: 'epoch' as const,
        resetErrorMs: -400,
        requestsSpent: 30,
      })),
  };
}

export function sampleTimeline() {
  return {
    windowMs: 1500,
    operations: allOperations()
      .slice(0, 5)
      .map((o) => ({
        id: o.id,
        environment: 'production',
        advertisedResetMs: 1_800_000_002_000,
        observedRefillMs: 1_800_000_001_600,
        samples: [4, 3, 2, 1, 0, 0].map((r, i) => ({
          tMs: i * 5,
          status: i === 5 ? 429 : 200,
          remaining: r,
          limit: 5,
          reset: 1_800_000_002,
        })),
      })),
  };
}

/** A failed paging check with a reproduction of one curl (and the token command, when given). */
export function sampleFailedCheck(error: string, token?: string): TestResult {
  return {
    title: 'should page catalog.search as published (production)',
    file: 'paging.spec.ts',
    status: 'failed',
    durationMs: 3,
    tags: [],
    error,
    reproduction: {
      ...(token ? { token } : {}),
      curls: [
        `curl -sS -i -X GET 'http://127.0.0.1:9/resellers/v6/catalog?pageSize=2&pageNumber=1' -H 'Authorization: Bearer'" $ACCESS_TOKEN"`,
      ],
      variables: token ? ['RESELLER_CLIENT_SECRET'] : [],
      notReproduced: [],
    },
  };
}

/** An exchange of a check as exchanges.har holds it: a page of the catalog search, answered 200 with 25 entries. */
export function sampleExchange(
  check: Pick<TestResult, 'title' | 'file'>,
  status = 200,
  body = '{"recordsFound":12,"pageSize":25}',
): HarEntry {
  return {
    startedDateTime: '2026-11-22T10:00:01.000Z',
    time: 3,
    request: {
      method: 'GET',
      url: 'http://127.0.0.1:9/resellers/v6/catalog?pageSize=2&pageNumber=1',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: [{ name: 'IM-CorrelationID', value: 'c0ffee' }],
      queryString: [],
      headersSize: -1,
      bodySize: 0,
    },
    response: {
      status,
      statusText: '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: [{ name: 'content-type', value: 'application/json' }],
      content: { size: 40, mimeType: 'application/json', text: body },
      redirectURL: '',
      headersSize: -1,
      bodySize: 40,
    },
    cache: {},
    timings: { send: 0, wait: 3, receive: 0 },
    _check: check.title,
    _file: check.file,
    _correlationId: 'c0ffee',
  };
}
