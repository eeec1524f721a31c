import { test, expect } from '@playwright/test';
import type { ApiResponse } from '../../clients/http';
import { failedEntryOf, harEntryOf } from '../../contracts/record/har-entry';
import { harLogOf } from '../../contracts/reporter/exchanges-har';
import { harProblems } from './support/har-validate';

const TOKEN = 'tok3nV4lue0123456789abcdefABCDEF';
const SECRET = 'canary-secret-har';
const SIGNATURE = 'c2lnbmF0dXJlLW9mLXRoZS1ldmVudA==';

/** An answer as the client builds it, with the request as sent. */
function answer(over: Partial<ApiResponse> = {}): ApiResponse {
  return {
    method: 'GET',
    url: 'http://127.0.0.1:9/resellers/v6/catalog',
    status: 200,
    headers: { 'content-type': 'application/json', 'x-ratelimit-remaining': '4' },
    text: '{"recordsFound":12}',
    json: { recordsFound: 12 },
    durationMs: 12.5,
    sentAtMs: Date.UTC(2026, 0, 2, 3, 4, 5),
    receivedAtMs: Date.UTC(2026, 0, 2, 3, 4, 5) + 12,
    correlationId: 'c0ffee',
    request: {
      url: 'http://127.0.0.1:9/resellers/v6/catalog?pageSize=2&pageNumber=1',
      headers: { Accept: 'application/json', 'IM-CorrelationID': 'c0ffee', Authorization: `Bearer ${TOKEN}` },
    },
    ...over,
  };
}

test.describe('exchanges as HAR entries', () => {
  test('should keep the request as sent, the answer, the check and the correlation id, and validate as HAR 1.2', () => {
    const e = harEntryOf(answer(), { check: 'should page the catalog (production)', file: 'paging.spec.ts' });
    expect(e.request.url).toBe('http://127.0.0.1:9/resellers/v6/catalog?pageSize=2&pageNumber=1');
    expect(e.request.queryString).toEqual([
      { name: 'pageSize', value: '2' },
      { name: 'pageNumber', value: '1' },
    ]);
    expect(e.response.status).toBe(200);
    expect(e.response.content.text).toBe('{"recordsFound":12}');
    expect(e.response.headers).toContainEqual({ name: 'x-ratelimit-remaining', value: '4' });
    expect(e._check).toBe('should page the catalog (production)');
    expect(e._correlationId).toBe('c0ffee');
    expect(e.startedDateTime).toBe('2026-01-02T03:04:05.000Z');
    expect(harProblems(harLogOf([e], '0.1.0'))).toEqual([]);
  });

  test('should be refused by the schema when an entry lacks its answer (the validation can fail)', () => {
    const e = harEntryOf(answer(), undefined) as unknown as Record<string, unknown>;
    delete e.response;
    expect(harProblems({ log: { version: '1.2', creator: { name: 'x', version: '1' }, entries: [e] } }).join('\n')).toMatch(
      /must have required property 'response'/,
    );
  });

  test('should redact the token sent, the token answered, the client secret of a form and a webhook signature', () => {
    const token = harEntryOf(
      answer({
        method: 'POST',
        text: `{"access_token":"${TOKEN}","token_type":"Bearer","expires_in":86399}`,
        request: {
          url: 'http://127.0.0.1:9/oauth/oauth20/token',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
          body: `grant_type=client_credentials&client_id=app&client_secret=${SECRET}`,
        },
      }),
      undefined,
    );
    const webhook = harEntryOf(
      answer({
        method: 'POST',
        request: {
          url: 'http://127.0.0.1:9/webhooks',
          headers: { 'x-hub-signature': SIGNATURE, Authorization: `Bearer ${TOKEN}` },
          body: '{}',
        },
      }),
      undefined,
    );
    const query = harEntryOf(
      answer({ request: { url: `http://127.0.0.1:9/oauth/oauth20/token?client_id=app&client_secret=${SECRET}`, headers: {} } }),
      undefined,
    );
    expect(query.request.url).toBe('http://127.0.0.1:9/oauth/oauth20/token?client_id=app&client_secret=%5BREDACTED%5D');
    expect(harProblems(harLogOf([query], '0.1.0')), 'a redacted query is still a URI').toEqual([]);
    const text = JSON.stringify([token, webhook, query, harEntryOf(answer(), undefined)]);
    for (const secret of [TOKEN, SECRET, SIGNATURE]) expect(text).not.toContain(secret);
    expect(token.request.postData?.text).toBe('grant_type=client_credentials&client_id=app&client_secret=[REDACTED]');
    expect(webhook.request.headers).toContainEqual({ name: 'x-hub-signature', value: '[REDACTED]' });
    expect(webhook.request.headers).toContainEqual({ name: 'Authorization', value: 'Bearer [REDACTED]' });
  });

  test('should record a request that got no answer with status 0 and its failure, still valid HAR 1.2', () => {
    const { method, url, correlationId, sentAtMs, request } = answer();
    const e = failedEntryOf(
      { method, url, correlationId, sentAtMs, request },
      new Error(`[timeout] no answer; Bearer ${TOKEN}`),
      undefined,
    );
    expect(e.response.status).toBe(0);
    expect(e._failure).toBe('[timeout] no answer; Bearer [REDACTED]');
    expect(e.request.url).toBe('http://127.0.0.1:9/resellers/v6/catalog?pageSize=2&pageNumber=1');
    expect(harProblems(harLogOf([e], '0.1.0'))).toEqual([]);
  });
});
