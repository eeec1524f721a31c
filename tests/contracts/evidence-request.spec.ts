import { test, expect } from '@playwright/test';
import { ApiClient, RequestBudget, evidenceOf, type ApiResponse } from '../../clients/http';
import type { Fetcher, FetchOptions } from '../../clients/fetcher';

/** A transport that answers 200 with a fixed body and keeps what it was asked to send. */
function recordingFetcher(sent: { url: string; o: FetchOptions }[]): Fetcher {
  return {
    fetch: async (url, o) => {
      sent.push({ url, o });
      return {
        status: () => 200,
        headers: () => ({ 'content-type': 'application/json' }),
        body: async () => Buffer.from('{"recordsFound":12}'),
        dispose: async () => undefined,
      };
    },
  };
}

const client = (sent: { url: string; o: FetchOptions }[], onExchange?: (r: ApiResponse) => void) =>
  new ApiClient(recordingFetcher(sent), {
    baseUrl: 'http://127.0.0.1:9',
    budget: new RequestBudget(10),
    timeoutMs: 1000,
    maxBodyBytes: 10_000,
    extraHeaders: {},
    correlationId: () => 'c0ffee',
    ...(onExchange ? { onExchange } : {}),
  });

test.describe('evidence names the whole request', () => {
  test('should show the query string of the request in its evidence line', async () => {
    const res = await client([]).send({ method: 'GET', path: '/resellers/v6/catalog', query: { pageSize: '2', pageNumber: '1' } });
    expect(evidenceOf(res)).toContain('GET http://127.0.0.1:9/resellers/v6/catalog?pageSize=2&pageNumber=1 → 200');
  });

  test('should show a short form of a JSON body, cut with an ellipsis', async () => {
    const json = { customerOrderNumber: 'PO-1', lines: Array.from({ length: 40 }, (_, i) => ({ ingramPartNumber: `P${i}`, quantity: 1 })) };
    const res = await client([]).send({ method: 'POST', path: '/resellers/v6/orders', json });
    const line = evidenceOf(res);
    expect(line).toContain('with body {"customerOrderNumber":"PO-1","lines":[{"ingramPartNumber":"P0","quantity":1}');
    expect(line).toMatch(/with body [^→]{160}… → 200/);
  });

  test('should record the request as sent: the form body URL-encoded with its type, the secret redacted in evidence', async () => {
    const sent: { url: string; o: FetchOptions }[] = [];
    let seen: ApiResponse | undefined;
    await client(sent, (r) => (seen = r)).send({
      method: 'POST',
      path: '/oauth/oauth20/token',
      form: { grant_type: 'client_credentials', client_id: 'id-1', client_secret: 'canary-secret-7' },
    });
    expect(seen?.request?.body).toBe(new URLSearchParams(sent[0]?.o.form).toString());
    expect(seen?.request?.headers['Content-Type']).toBe('application/x-www-form-urlencoded');
    expect(seen?.request?.headers['IM-CorrelationID']).toBe('c0ffee');
    const line = evidenceOf(seen as ApiResponse);
    expect(line).toContain('client_id=id-1');
    expect(line).not.toContain('canary-secret-7');
  });

  test('should hand a request that got no answer, as sent, to the failure hook before the failure is thrown', async () => {
    const failures: { url?: string; kind: string }[] = [];
    const silent = new ApiClient(
      { fetch: async () => Promise.reject(new Error('Timeout 1000ms exceeded')) },
      {
        baseUrl: 'http://127.0.0.1:9',
        budget: new RequestBudget(10),
        timeoutMs: 1000,
        maxBodyBytes: 10_000,
        extraHeaders: {},
        onFailure: (sent, failure) => failures.push({ ...(sent.request ? { url: sent.request.url } : {}), kind: failure.kind }),
      },
    );
    await expect(silent.send({ method: 'GET', path: '/resellers/v6/catalog', query: { pageSize: '2' } })).rejects.toThrow(/\[timeout\]/);
    expect(failures).toEqual([{ url: 'http://127.0.0.1:9/resellers/v6/catalog?pageSize=2', kind: 'timeout' }]);
  });
});
