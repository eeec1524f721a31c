import { test, expect } from '@playwright/test';
import type { ApiResponse } from '../../clients/http';
import { redact, registerSecret } from '../../clients/redact';
import { harEntryOf } from '../../contracts/record/har-entry';
import { reproductionOf, reproductionText } from '../../contracts/reporter/reproduction';
import type { TestResult } from '../../reporting/report-shapes';

const BASE = 'http://127.0.0.1:9/gw';
const SECRET = 'configured-secret-for-reproduction';
const TOKEN = 'issuedTokenForReproduction0123456';

/** An exchange as the client records it. */
function exchange(
  method: string,
  url: string,
  headers: Record<string, string>,
  body: string | undefined,
  status: number,
  text: string,
  id: string,
): ApiResponse {
  return {
    method,
    url,
    status,
    headers: { 'content-type': 'application/json' },
    text,
    json: undefined,
    durationMs: 1,
    sentAtMs: 1_700_000_000_000 + Number.parseInt(id, 16),
    receivedAtMs: 1_700_000_000_001,
    correlationId: id,
    request: { url, headers, ...(body !== undefined ? { body } : {}) },
  };
}

const owner = { check: 'should page catalog.search (sandbox)', file: 'paging.spec.ts' };
const failed: TestResult = {
  title: owner.check,
  file: owner.file,
  status: 'failed',
  durationMs: 1,
  tags: [],
  error: 'Broken fact … IM-CorrelationID: 0b',
};

test.describe('reproduction of a failed check', () => {
  test.beforeAll(() => {
    registerSecret(SECRET);
    registerSecret(TOKEN);
  });

  const token = () =>
    harEntryOf(
      exchange(
        'POST',
        `${BASE}/sandbox/oauth/oauth20/token`,
        { 'Content-Type': 'application/x-www-form-urlencoded' },
        `grant_type=client_credentials&client_id=app&client_secret=${SECRET}`,
        200,
        `{"access_token":"${TOKEN}","expires_in":86399}`,
        '0a',
      ),
      undefined,
    );
  const call = (id: string, auth: string) =>
    harEntryOf(
      exchange(
        'GET',
        `${BASE}/sandbox/resellers/v6/catalog?pageSize=2`,
        { 'IM-CorrelationID': id, Authorization: `Bearer ${auth}` },
        undefined,
        200,
        '{}',
        id,
      ),
      owner,
    );

  test('should send the exchange its failure names, with the issued token from the sandbox token command, and survive redaction', () => {
    const rep = reproductionOf(failed, [token(), call('09', TOKEN), call('0b', TOKEN)]);
    expect(rep?.curls).toHaveLength(1);
    expect(rep?.curls[0]).toContain("'http://127.0.0.1:9/gw/sandbox/resellers/v6/catalog?pageSize=2'");
    expect(rep?.curls[0]).toContain('IM-CorrelationID: 0b');
    expect(rep?.curls[0]).toContain(`'Authorization: Bearer'" $ACCESS_TOKEN"`);
    expect(rep?.token).toMatch(/^read -r ACCESS_TOKEN < <\(curl -sS -X POST 'http:\/\/127\.0\.0\.1:9\/gw\/sandbox\/oauth\/oauth20\/token'/);
    expect(rep?.token).toContain('--data-urlencode "client_secret=$RESELLER_CLIENT_SECRET"');
    expect(rep?.variables).toEqual(['RESELLER_CLIENT_SECRET']);
    const text = reproductionText(rep as NonNullable<typeof rep>).join('\n');
    expect(redact(text), 'every printed line is redacted: the commands must come through whole').toBe(text);
    for (const secret of [SECRET, TOKEN]) expect(text).not.toContain(secret);
  });

  test('should name a token the check made up instead of sending the issued one', () => {
    const rep = reproductionOf(failed, [token(), call('0b', 'garbage-token')]);
    expect(rep?.notReproduced).toEqual(['a token the check made up (redacted)']);
    expect(rep?.curls[0]).not.toContain('$ACCESS_TOKEN');
  });

  test('should put the configured secret of a JSON body in its variable, where redaction leaves it', () => {
    const json = harEntryOf(
      exchange(
        'POST',
        `${BASE}/sandbox/oauth/oauth20/token`,
        { 'Content-Type': 'application/json' },
        JSON.stringify({ client_id: 'app', client_secret: SECRET }),
        200,
        '{}',
        '0b',
      ),
      owner,
    );
    const rep = reproductionOf(failed, [token(), json]);
    expect(rep?.curls[0]).toContain(`--data-raw '{"client_id":"app","client_secret":'"\\"$RESELLER_CLIENT_SECRET"'"}'`);
    expect(redact(rep?.curls[0] ?? '')).toBe(rep?.curls[0]);
  });
});
